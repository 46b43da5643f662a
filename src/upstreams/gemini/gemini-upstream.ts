/**
 * A chat-format upstream for Google's Gemini models through their native
 * API, on Google AI Studio or Vertex AI: the chat body becomes a
 * `generateContent` request (`chatToGeminiRequest`), Gemini's answer (whole,
 * or its SSE) becomes a `chat.completion` or chat-completion chunks, and
 * Google's errors become chat errors of the status Google meant. The
 * gateway serves it on chat completions, the Responses API and (translated)
 * the messages interface like any chat upstream.
 *
 * Thought signatures: each function call's signature travels sealed inside
 * the tool-call id the caller gets (`call.sealing`, bound by the gateway to
 * the caller and model), and goes back on the call's part when the caller
 * sends the id back on the next turn.
 *
 * @see https://ai.google.dev/api/generate-content
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
import { GatewayError, isGatewayError } from '../../errors.js';
import { MAX_UPSTREAM_JSON_BYTES } from '../../handlers/check-upstream-answer.js';
import { assertOptions } from '../../options/parse-options.js';
import { geminiUpstreamOptionsSchema } from '../../options/gemini-upstream-schema.js';
import { createRedactor, type Redactor } from '../../redact/redactor.js';
import { upstreamAddresses } from '../../redact/upstream-addresses.js';
import { upstreamSecrets } from '../../redact/upstream-secrets.js';
import type { ChatCompletionRequest } from '../../schemas/index.js';
import type { EmbeddingsRequest } from '../../schemas/embeddings.js';
import { abortSourceOf } from '../../signals/abort-source.js';
import { isUnforwardableHeader } from '../forward-headers.js';
import { createHttpClient, hostOf, serverOf } from '../http-client.js';
import { withWarnings } from '../platform-request.js';
import { readBody } from '../read-body.js';
import { requestBodyObject, withoutFraming } from '../request-body.js';
import type { Upstream, UpstreamCall, UpstreamResponse } from '../upstream.js';
import { oneChunk } from '../bedrock/bedrock-errors.js';
import { chatToGeminiRequest } from './chat-to-gemini-request.js';
import { openGeminiStream } from './gemini-chat-stream-body.js';
import { apiKeyCredentials, type GeminiCredentials, vertexCredentials } from './gemini-credentials.js';
import { geminiToChatResponse } from './gemini-to-chat-response.js';
import { GeminiToChatStream } from './gemini-to-chat-stream.js';
import type { GeminiGenerateContentResponse } from './gemini-types.js';
import type { GeminiUpstreamOptions } from './gemini-upstream-options.js';
import { embeddingTexts, geminiToEmbeddingsResponse, toGeminiEmbedRequest, toVertexPredictBody, vertexPredictionsToEmbeddingsResponse } from './gemini-embeddings.js';
import { type GeminiMethod, geminiMethodPath, type GeminiPlace, geminiRoot } from './gemini-url.js';
import { predictEach } from './predict-each.js';
import { chatErrorResponse, geminiFailureToError, readGeminiError } from './read-gemini-error.js';

/** `gen_ai.provider.name` of the Gemini API on Google AI Studio (OpenTelemetry GenAI conventions). */
export const GEMINI_PROVIDER_NAME = 'gcp.gemini';

/** `gen_ai.provider.name` of Vertex AI (OpenTelemetry GenAI conventions). */
export const GEMINI_VERTEX_PROVIDER_NAME = 'gcp.vertex_ai';

/** Access tokens kept for redaction (tokens rotate; an error may quote the previous one). */
const KEPT_TOKENS = 4;

/** Caller headers sent on to Google: what the gateway's allow-list let through (the hop mark, trace context, the operator's `forwardHeaders`), none of the other vendors' own. */
function isForwarded(name: string): boolean {
  return !name.startsWith('anthropic-') && !name.startsWith('openai-') && !isUnforwardableHeader(name);
}

/** The call's body, with the model Google is asked for; the gateway validated it (or built it by translation) before the call. */
function bodyOf<T>(call: UpstreamCall): T & { model: string } {
  const body = requestBodyObject(call);
  if (typeof body.model !== 'string' || body.model === '') {
    throw new GatewayError('INVALID_REQUEST', '`model` is required: the Gemini model id (gemini-2.5-flash).', { param: 'model' });
  }
  return body as unknown as T & { model: string };
}

/** The whole JSON answer of a 2xx response. */
async function readJson(response: UpstreamResponse, name: string): Promise<unknown> {
  const { bytes, truncated } = await readBody(response.body, MAX_UPSTREAM_JSON_BYTES);
  if (truncated) throw new GatewayError('UPSTREAM_ERROR', `Upstream "${name}" sent an answer larger than ${MAX_UPSTREAM_JSON_BYTES} bytes.`);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    throw new GatewayError('UPSTREAM_ERROR', `Upstream "${name}" sent an answer that is not JSON.`);
  }
}

function jsonResponse(json: unknown, headers: Record<string, string>): UpstreamResponse {
  const bytes = new TextEncoder().encode(JSON.stringify(json));
  return { status: 200, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(bytes.byteLength) }, body: oneChunk(bytes) };
}

/**
 * Creates an upstream for Gemini models. The route's model (after renames)
 * is the Gemini model id (`gemini-2.5-flash`, `gemini-3-pro-preview`).
 *
 * Operations: `chat.completions` → `POST …/models/{model}:generateContent`,
 * or `:streamGenerateContent?alt=sse` when streamed; `embeddings` →
 * `:embedContent` (one text) or `:batchEmbedContents` (a list) on AI
 * Studio, `:predict` once per text on Vertex AI; others reject with
 * `NOT_IMPLEMENTED` (501): Gemini holds no
 * files, and its model list is not relayed. What Gemini cannot express of the chat body is left out and named
 * in `x-modelgate-warnings`. A blocked prompt is a 400 `content_filter`;
 * Google's errors keep their status (429 and 5xx are retried and failed
 * over, 4xx are not), an invalid key is told as the 401 it is.
 *
 * @throws GatewayConfigError when an option is wrong, or when `vertex` has
 *   neither `accessToken` nor `googleAuth` and `google-auth-library` is not
 *   installed.
 * @example
 * const gemini = geminiUpstream({ apiKey: process.env.GEMINI_API_KEY! });
 * createGateway({ auth, routes: [{ match: 'gemini-*', upstream: gemini, serveMessages: true }] });
 * // On Vertex AI, with Application Default Credentials:
 * const onVertex = geminiUpstream({ vertex: { projectId: 'my-project', region: 'global' } });
 */
export function geminiUpstream(options: GeminiUpstreamOptions): Upstream {
  assertOptions(geminiUpstreamOptionsSchema, options, 'geminiUpstream');
  const place: GeminiPlace = options.vertex ? { kind: 'vertex', projectId: options.vertex.projectId, region: options.vertex.region } : { kind: 'ai-studio' };
  const baseURL = (options.baseURL ?? geminiRoot(place)).replace(/\/+$/, '');
  const name = options.name ?? hostOf(baseURL);
  const client = createHttpClient({ ...options, baseURL, name });

  const fixedSecrets = upstreamSecrets({ apiKey: options.apiKey, headers: options.headers, baseURL });
  const tokens: string[] = [];
  let redactor: Redactor = createRedactor(fixedSecrets);
  const remember = (token: string): void => {
    if (tokens.includes(token)) return;
    tokens.push(token);
    if (tokens.length > KEPT_TOKENS) tokens.shift();
    redactor = createRedactor([...fixedSecrets, ...tokens]);
  };
  const redact = (text: string): string => redactor.redact(text);
  const credentials: GeminiCredentials = options.vertex ? vertexCredentials(options.vertex, name, remember) : apiKeyCredentials(options.apiKey!);

  async function toChatError(response: UpstreamResponse): Promise<UpstreamResponse> {
    let bytes: Uint8Array = new Uint8Array();
    try {
      bytes = (await readBody(response.body)).bytes;
    } catch {
      // A body that fails to arrive still leaves the status to report.
    }
    return chatErrorResponse(geminiFailureToError(readGeminiError(bytes, response.status), name, redact), withoutFraming(response.headers));
  }

  async function toChatAnswer(response: UpstreamResponse, body: ChatCompletionRequest & { model: string }, call: UpstreamCall): Promise<UpstreamResponse> {
    const answer = (await readJson(response, name)) as GeminiGenerateContentResponse;
    const headers = withoutFraming(response.headers);
    try {
      const completion = geminiToChatResponse(answer, { model: body.model, upstream: name, ...(call.sealing ? { sealSignature: call.sealing.seal } : {}) });
      return jsonResponse(completion, headers);
    } catch (error) {
      // A blocked prompt (400) or an answer with nothing to relay (502), told in the caller's format.
      if (isGatewayError(error)) return chatErrorResponse(error, headers);
      throw error;
    }
  }

  async function toChatStream(response: UpstreamResponse, body: ChatCompletionRequest & { model: string }, call: UpstreamCall): Promise<UpstreamResponse> {
    const translator = new GeminiToChatStream({
      model: body.model,
      includeUsage: body.stream_options?.include_usage === true,
      upstream: name,
      redact,
      ...(call.sealing ? { sealSignature: call.sealing.seal } : {}),
    });
    const headers = withoutFraming(response.headers);
    const opened = await openGeminiStream(response.body, translator, { upstream: name, redact });
    if (opened.kind === 'failed') return chatErrorResponse(opened.error, headers);
    return { status: 200, headers: { ...headers, 'content-type': 'text/event-stream' }, body: opened.body };
  }

  /** POSTs `body` to `method` on `model`, with the caller's allowed headers and the credentials. */
  async function post(call: UpstreamCall, model: string, method: GeminiMethod, body: unknown): Promise<UpstreamResponse> {
    const { path, query } = geminiMethodPath(place, model, method);
    const headers: Record<string, string> = {};
    for (const [header, value] of Object.entries(call.headers)) if (isForwarded(header.toLowerCase())) headers[header.toLowerCase()] = value;
    if (options.headers !== undefined) for (const [header, value] of Object.entries(options.headers)) headers[header.toLowerCase()] = value;
    Object.assign(headers, await credentials());
    headers['content-type'] = 'application/json';
    headers.accept = method === 'streamGenerateContent' ? 'text/event-stream' : 'application/json';
    return client.send({ method: 'POST', path, ...(query ? { query } : {}), headers, body: JSON.stringify(body), signal: abortSourceOf(call) });
  }

  /** Embeddings on Vertex AI: one `:predict` call per text, the answers joined into one list. */
  async function embedOnVertex(call: UpstreamCall, body: EmbeddingsRequest & { model: string }): Promise<{ response: UpstreamResponse; answer: () => Promise<UpstreamResponse> }> {
    const texts = embeddingTexts(body.input);
    const outcome = await predictEach(texts.length, (index) => post(call, body.model, 'predict', toVertexPredictBody(texts[index]!, body)), (response) => readJson(response, name));
    if (outcome.kind === 'refused') return { response: outcome.response, answer: () => Promise.reject(new Error('unreachable: a refused call has no answer')) };
    const headers = withoutFraming(outcome.headers);
    const answered: UpstreamResponse = { status: 200, headers, body: oneChunk(new Uint8Array()) };
    return { response: answered, answer: async () => jsonResponse(vertexPredictionsToEmbeddingsResponse(outcome.answers, body, { model: body.model, upstream: name }), headers) };
  }

  /** Embeddings through `embedContent` / `batchEmbedContents` on AI Studio, `:predict` on Vertex AI. */
  async function embed(call: UpstreamCall): Promise<{ response: UpstreamResponse; answer: () => Promise<UpstreamResponse> }> {
    const body = bodyOf<EmbeddingsRequest>(call);
    if (place.kind === 'vertex') return embedOnVertex(call, body);
    const request = toGeminiEmbedRequest(body, body.model);
    const response = await post(call, body.model, request.method, request.body);
    return {
      response,
      answer: async () => jsonResponse(geminiToEmbeddingsResponse(await readJson(response, name), body, { model: body.model, upstream: name }), withoutFraming(response.headers)),
    };
  }

  async function generate(call: UpstreamCall): Promise<{ response: UpstreamResponse; answer: () => Promise<UpstreamResponse> }> {
    const body = bodyOf<ChatCompletionRequest>(call);
    const stream = call.stream === true;
    const translation = chatToGeminiRequest(body, { model: body.model, openSignature: call.sealing?.open });
    const response = await post(call, body.model, stream ? 'streamGenerateContent' : 'generateContent', translation.request);
    const answer = async () => withWarnings(stream ? await toChatStream(response, body, call) : await toChatAnswer(response, body, call), translation.warnings);
    return { response, answer };
  }

  async function send(call: UpstreamCall): Promise<UpstreamResponse> {
    if (call.operation !== 'chat.completions' && call.operation !== 'embeddings') {
      throw new GatewayError('NOT_IMPLEMENTED', `Upstream "${name}" (Gemini) does not support ${call.operation}.`);
    }
    const { response, answer } = call.operation === 'embeddings' ? await embed(call) : await generate(call);
    try {
      if (response.status < 200 || response.status >= 300) return await toChatError(response);
      return await answer();
    } catch (error) {
      (response.body as { destroy?: () => void }).destroy?.();
      throw isGatewayError(error) ? error : new GatewayError('UPSTREAM_ERROR', `Upstream "${name}" sent an answer that could not be read.`);
    }
  }

  const addresses = upstreamAddresses(baseURL);
  return {
    name,
    nameIsAddress: options.name === undefined,
    format: 'chat',
    provider: options.vertex ? GEMINI_VERTEX_PROVIDER_NAME : GEMINI_PROVIDER_NAME,
    holdsFiles: false,
    sealsReplies: true,
    acceptsCallerKey: false,
    server: serverOf(baseURL),
    addresses: () => addresses,
    send,
    secrets: () => [...fixedSecrets, ...tokens],
    close: () => client.close(),
  };
}
