/**
 * An Azure OpenAI protocol stub on 127.0.0.1:0, speaking Azure's wire
 * format from the hand-written shapes of test/fixtures/azure: deployment
 * URLs that need `api-version`, the v1 API (`/openai/v1`, deployment in the
 * body's `model`, no `api-version`), `api-key` or an Entra ID bearer token,
 * the odd stream chunks, the prompt-filter 400 and the 429 with
 * `retry-after` and a string code. The last user message picks the answer:
 *
 * - contains `blocked`: the prompt-filter 400;
 * - contains `throttle-once`: a 429 the first time that text is seen, then an answer;
 * - contains `throttle-always`: always a 429;
 * - contains `leak`: a 400 whose message quotes the credential the stub got (a redaction check);
 * - contains `violent`: an answer the output filter cuts (`finish_reason: "content_filter"`);
 * - anything else: "Hello from Azure.".
 *
 * Embeddings (`…/{deployment}/embeddings`, `/openai/v1/embeddings`) answer
 * `embeddingsAnswer` (test/helpers/embeddings-answer.ts) under the deployment's name.
 */
import type { RecordedRequest, StubReply, StubUpstream } from './stub-upstream.js';
import { startStubUpstream } from './stub-upstream.js';
import { azureChunks, azureJson } from './azure-fixtures.js';
import { embeddingsAnswer } from './embeddings-answer.js';

/** Options of {@link startAzureStub}. */
export interface AzureStubOptions {
  /** Keys accepted as `api-key`. */
  keys?: readonly string[];
  /** Entra tokens accepted as `authorization: Bearer` right now (read on every request). */
  tokens?: () => readonly string[];
  /** Deployments the resource has. */
  deployments: readonly string[];
}

export interface AzureStub extends StubUpstream {
  /** `https://…openai.azure.com`-style endpoint: `http://127.0.0.1:<port>`. */
  endpoint: string;
}

const DATED = /^\d{4}-\d{2}-\d{2}(-preview)?$/;
const AZURE_HEADERS = { 'apim-request-id': 'apim-0001', 'x-ms-region': 'Sweden Central', 'x-ratelimit-remaining-requests': '99' };

const json = (status: number, body: unknown, headers: Record<string, string> = {}): StubReply => ({ kind: 'json', status, body, headers: { ...AZURE_HEADERS, ...headers } });
const notFound = (): StubReply => json(404, { error: { code: '404', message: 'Resource not found' } });

function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  const last = [...messages].reverse().find((message) => message.role === 'user');
  const content = last?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

function answer(body: Record<string, unknown>, filtered: boolean): StubReply {
  if (body.stream !== true) return json(200, azureJson(filtered ? 'completion-output-filtered' : 'completion-text'));
  const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  const chunks = azureChunks(filtered ? 'stream-output-filtered' : 'stream-text').filter((line) => includeUsage || !line.includes('"usage":{'));
  return { kind: 'sse', headers: AZURE_HEADERS, events: [...chunks.map((data) => ({ data })), { data: '[DONE]' }] };
}

/** Starts the stub. */
export async function startAzureStub(options: AzureStubOptions): Promise<AzureStub> {
  const throttled = new Set<string>();
  const reply = (request: RecordedRequest): StubReply => {
    const url = new URL(request.url, 'http://stub');
    const apiVersion = url.searchParams.get('api-version');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return json(400, { error: { code: 'BadRequest', message: 'Invalid JSON' } });
    }
    let deployment: string | undefined;
    const classic = /^\/openai\/deployments\/([^/]+)\/(?:chat\/completions|embeddings)$/.exec(url.pathname);
    const embeddings = url.pathname.endsWith('/embeddings');
    if (classic && request.method === 'POST') {
      if (apiVersion === null || !DATED.test(apiVersion)) return notFound();
      deployment = decodeURIComponent(classic[1]!);
    } else if ((url.pathname === '/openai/v1/chat/completions' || url.pathname === '/openai/v1/embeddings') && request.method === 'POST') {
      if (apiVersion !== null && apiVersion !== 'preview') return json(400, { error: { code: 'BadRequest', message: 'api-version is not supported on the v1 API' } });
      deployment = typeof body.model === 'string' ? body.model : undefined;
    } else {
      return notFound();
    }
    const key = request.headers['api-key'];
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    const authorized = (typeof key === 'string' && (options.keys ?? []).includes(key)) || (bearer !== undefined && (options.tokens?.() ?? []).includes(bearer));
    if (!authorized) {
      return json(401, { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.' } });
    }
    if (deployment === undefined || !options.deployments.includes(deployment)) {
      return json(404, { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.' } });
    }
    if (embeddings) return json(200, embeddingsAnswer(body, deployment));
    const text = lastUserText(body);
    if (text.includes('blocked')) return json(400, azureJson('error-prompt-filtered'));
    if (text.includes('throttle-always') || (text.includes('throttle-once') && !throttled.has(text))) {
      throttled.add(text);
      return json(429, azureJson('error-rate-limited'), { 'retry-after': '1', 'x-ratelimit-remaining-requests': '0' });
    }
    if (text.includes('leak')) return json(400, { error: { code: 'BadRequest', message: `Request rejected; credential was ${key ?? `Bearer ${bearer}`}` } });
    return answer(body, text.includes('violent'));
  };
  const stub = await startStubUpstream(reply);
  return Object.assign(stub, { endpoint: stub.url });
}
