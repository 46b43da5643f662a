/**
 * What crosses the gateway, per upstream kind (chat, messages, Bedrock,
 * Vertex, Azure OpenAI), each against its local stub over HTTP:
 * - upstream: only allow-listed caller headers (each format's defaults and
 *   the configured `forwardHeaders`); never the simulator's fault controls,
 *   the gateway's own `x-modelgate-*`, cookies or proxy headers;
 * - back: an upstream's own address (base URL, `host:port`, host) quoted in
 *   an error it sends is redacted before the caller sees it, in a JSON
 *   error and in a mid-stream error event.
 */
import { azureOpenAI, bedrockUpstream, messagesUpstream, openAICompatible, vertexUpstream, type GatewayOptions, type Upstream } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGION, startBedrockStub, type BedrockStub } from '../helpers/bedrock-stub.js';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream, type StubReply, type StubUpstream } from '../helpers/stub-upstream.js';
import { LOCATION, PROJECT, startVertexStub, type VertexStub } from '../helpers/vertex-stub.js';

/** What a caller sends besides its key: internal headers of every kind, and one the operator forwards. */
const CALLER_HEADERS: Record<string, string> = {
  'x-simulator-fault': 'status=500',
  'x-modelgate-debug': 'on',
  cookie: 'session=caller-session-cookie',
  forwarded: 'for=10.1.2.3;host=intranet.corp',
  'x-forwarded-for': '10.1.2.3',
  'x-forwarded-host': 'intranet.corp',
  'x-real-ip': '10.1.2.3',
  'openai-organization': 'org-caller',
  'x-my-trace': 'trace-123',
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
};
const NEVER = ['x-simulator-fault', 'x-modelgate-debug', 'cookie', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'openai-organization'];

const chatAnswer = { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
const messagesAnswer = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };

/** The error text a stub sends: every form of its address (`localhost:<port>` as base). */
function quoting(base: string): string {
  const url = new URL(base);
  return `connect to ${base}/chat/completions failed; backend ${url.host} (${url.hostname.toUpperCase()}) refused, see ${JSON.stringify(base).slice(1, -1).replace(/\//g, '\\/')}`;
}

interface Kind {
  name: string;
  /** The model the caller asks for, and whether it is called through the chat client. */
  model: string;
  start(): Promise<{ upstream: Upstream; base: string; headers(): Record<string, string | string[] | undefined>; failNext(message: string): void; close(): Promise<void> }>;
}

/** A stub answering `ok`, or once the error set by `failNext`. */
async function scriptedStub(ok: () => StubReply, failure: (message: string) => StubReply) {
  let pending: string | undefined;
  const stub: StubUpstream = await startStubUpstream(() => {
    if (pending === undefined) return ok();
    const message = pending;
    pending = undefined;
    return failure(message);
  });
  return {
    stub,
    failNext: (message: string) => {
      pending = message;
    },
  };
}

const KINDS: Kind[] = [
  {
    name: 'chat (openAICompatible)',
    model: 'gpt-4o',
    async start() {
      const { stub, failNext } = await scriptedStub(
        () => ({ kind: 'json', body: chatAnswer }),
        (message) => ({ kind: 'json', status: 400, body: { error: { message, type: 'invalid_request_error', code: null, param: null } } }),
      );
      const base = `${stub.url.replace('127.0.0.1', 'localhost')}/v1`;
      return { upstream: openAICompatible({ baseURL: base, apiKey: 'sk-chat-upstream-key', name: 'chat' }), base, headers: () => stub.requests.at(-1)!.headers, failNext, close: () => stub.close() };
    },
  },
  {
    name: 'messages (messagesUpstream)',
    model: 'vendora-sonnet-4-6',
    async start() {
      const { stub, failNext } = await scriptedStub(
        () => ({ kind: 'json', body: messagesAnswer }),
        (message) => ({ kind: 'json', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } }),
      );
      const base = stub.url.replace('127.0.0.1', 'localhost');
      return { upstream: messagesUpstream({ baseURL: base, apiKey: 'sk-messages-upstream-key', name: 'messages' }), base, headers: () => stub.requests.at(-1)!.headers, failNext, close: () => stub.close() };
    },
  },
  {
    name: 'Bedrock (bedrockUpstream)',
    model: 'vendora-sonnet-4-6',
    async start() {
      const bedrock: BedrockStub = await startBedrockStub({ apiKeys: ['bedrock-api-key-0123456789'] });
      const base = bedrock.url.replace('127.0.0.1', 'localhost');
      return {
        upstream: bedrockUpstream({ region: REGION, endpoint: base, apiKey: 'bedrock-api-key-0123456789', name: 'bedrock' }),
        base,
        headers: () => bedrock.requests.at(-1)!.headers,
        failNext: (message) => bedrock.script.push({ kind: 'error', status: 400, errorType: 'ValidationException', message }),
        close: () => bedrock.close(),
      };
    },
  },
  {
    name: 'Vertex (vertexUpstream)',
    model: 'vendora-sonnet-4-6',
    async start() {
      const vertex: VertexStub = await startVertexStub({ tokens: ['ya29.vertex-token-0123456789'] });
      const base = vertex.baseURL.replace('127.0.0.1', 'localhost');
      return {
        upstream: vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: base, accessToken: 'ya29.vertex-token-0123456789', name: 'vertex' }),
        base,
        headers: () => vertex.requests.at(-1)!.headers,
        failNext: (message) => vertex.script.push({ kind: 'google', status: 400, googleStatus: 'INVALID_ARGUMENT', message }),
        close: () => vertex.close(),
      };
    },
  },
  {
    name: 'Azure OpenAI (azureOpenAI)',
    model: 'gpt-4o',
    async start() {
      const { stub, failNext } = await scriptedStub(
        () => ({ kind: 'json', body: chatAnswer }),
        (message) => ({ kind: 'json', status: 400, body: { error: { code: 'BadRequest', message } } }),
      );
      const base = stub.url.replace('127.0.0.1', 'localhost');
      return {
        upstream: azureOpenAI({ endpoint: base, apiKey: 'azure-key-0123456789abcdef', apiVersion: '2024-10-21', deployment: 'gpt4o-prod', name: 'azure' }),
        base,
        headers: () => stub.requests.at(-1)!.headers,
        failNext,
        close: () => stub.close(),
      };
    },
  },
];

async function chat(app: StartedApp, model: string, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...CALLER_HEADERS, ...extra },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }),
  });
}

describe.each(KINDS)('$name', (kind) => {
  let app: StartedApp;
  let started: Awaited<ReturnType<Kind['start']>>;

  beforeAll(async () => {
    started = await kind.start();
    const options: GatewayOptions = { auth: AUTH, routes: [{ match: '*', upstream: started.upstream, retries: 0 }], forwardHeaders: ['x-my-trace'] };
    app = await startApp('node', options);
  });
  afterAll(async () => {
    await app.close();
    await started.close();
  });

  it('receives only allow-listed caller headers', async () => {
    const response = await chat(app, kind.model);
    expect(response.status).toBe(200);
    const received = started.headers();
    for (const name of NEVER) expect(received, name).not.toHaveProperty(name);
    expect(received['x-my-trace']).toBe('trace-123');
    expect(String(received.via)).toMatch(/modelgate/);
  });

  it('has its own address redacted from the error it sends', async () => {
    started.failNext(quoting(started.base));
    const response = await chat(app, kind.model);
    expect(response.status).toBe(400);
    const text = await response.text();
    const url = new URL(started.base);
    expect(text).toContain('[redacted]');
    expect(text.toLowerCase()).not.toContain(url.host.toLowerCase());
    expect(text.toLowerCase()).not.toContain('localhost');
    expect(text).toContain('refused');
  });
});

describe('a mid-stream error event quoting the upstream address', () => {
  let stub: StubUpstream;
  let app: StartedApp;
  let base: string;

  beforeAll(async () => {
    stub = await startStubUpstream(() => ({
      kind: 'sse',
      events: [
        { event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { ...messagesAnswer, content: [], stop_reason: null } }) },
        { event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'api_error', message: `lost backend ${base}/v1/messages at ${new URL(base).host}` } }) },
      ],
    }));
    base = stub.url.replace('127.0.0.1', 'localhost');
    app = await startApp('node', { auth: AUTH, routes: [{ match: '*', upstream: messagesUpstream({ baseURL: base, apiKey: 'sk-messages-upstream-key' }), retries: 0 }] });
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });

  it.each([
    ['messages, relayed as it is', '/v1/messages'],
    ['chat, translated', '/v1/chat/completions'],
  ])('%s', async (_label, path) => {
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    const text = await response.text();
    expect(text).toContain('lost backend');
    expect(text).toContain('[redacted]');
    expect(text.toLowerCase()).not.toContain('localhost');
  });
});
