/**
 * A Google AI Studio (Gemini API) stub on 127.0.0.1:0 (node:http) speaking
 * the native wire format: `POST /v1beta/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse` (chunks as `data: <json>` with CRLF line
 * ends, as Google sends them), `:embedContent` and `:batchEmbedContents`,
 * each checked for its `x-goog-api-key` and its body (and the same methods
 * on Vertex AI's path, `POST /v1/projects/{project}/locations/{region}/publishers/google/models/{model}:…`,
 * checked for a Bearer token instead, plus Vertex AI's `:predict` of the
 * Text Embeddings API, one instance per request), answering scripted
 * replies (the fixtures of test/fixtures/gemini) or a default answer, and
 * Google's error envelope `{"error":{"code","message","status","details"}}`.
 *
 * Like Gemini it refuses (400 `INVALID_ARGUMENT`): unknown top-level
 * fields; a `contents` that is empty, has a role other than `user`/`model`
 * or a turn without parts; on a Gemini 3 model (`gemini-3*`), a
 * function-call step of the current turn whose first call has no
 * `thoughtSignature`, or a signature the stub never sent (the
 * `skip_thought_signature_validator` sentinel passes); and a function-call
 * turn not answered by one turn of as many `functionResponse` parts.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { toGeminiSse } from './gemini-fixtures.js';

/** The signature Google accepts in place of one for histories it did not write. */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

const GENERATE_FIELDS = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'safetySettings', 'cachedContent', 'labels']);
const PATH = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|embedContent|batchEmbedContents)$/;
const VERTEX_PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):(generateContent|streamGenerateContent|embedContent|batchEmbedContents|predict)$/;

export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'embedContent' | 'batchEmbedContents' | 'predict';

export interface GeminiRequest {
  /** The request target as received (path and query). */
  url: string;
  headers: Record<string, string>;
  /** The body as received. */
  body: string;
  /** The parsed body (when it was JSON). */
  json?: Record<string, unknown>;
  model?: string;
  method?: GeminiMethod;
  /** The project and location of a call on the Vertex AI path. */
  vertex?: { projectId: string; region: string };
  /** Why the stub refused the request, if it did. */
  problem?: string;
}

/** What one call answers. */
export type GeminiReply =
  | { kind: 'json'; body: unknown; status?: number; headers?: Record<string, string> }
  /** Stream chunks; `cut` ends the connection after them without finishing the response. */
  | { kind: 'sse'; chunks: readonly unknown[]; cut?: boolean }
  | { kind: 'google'; status: number; googleStatus: string; message: string; details?: unknown[] };

export interface GeminiStub {
  /** `http://127.0.0.1:<port>`: the base URL for `@google/genai` and `geminiUpstream`. */
  baseURL: string;
  requests: GeminiRequest[];
  /** Replies for the next generate calls, in order (embedding calls get the default answer unless scripted). */
  script: GeminiReply[];
  /** Replies for the next embedding calls. */
  embedScript: GeminiReply[];
  /** API keys accepted. */
  keys: Set<string>;
  /** Bearer tokens accepted on the Vertex AI path. */
  tokens: Set<string>;
  /** Thought signatures the stub sent (from replies) and so accepts back. */
  signatures: Set<string>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

class Refusal {
  constructor(
    readonly status: number,
    readonly googleStatus: string,
    readonly message: string,
    readonly details?: unknown[],
  ) {}
}

function writeGoogleError(res: ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code: refusal.status, message: refusal.message, status: refusal.googleStatus, ...(refusal.details ? { details: refusal.details } : {}) } }, null, 2));
}

/** A deterministic unit vector of `dimensions` numbers for `text` (what the stub embeds it as). */
export function stubEmbedding(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const hash = createHash('sha256').update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < hash.length && values.length < dimensions; i += 2) values.push(hash.readInt16BE(i) / 32768);
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((value) => value / norm);
}

/** Default dimensions of the stub's embeddings (`gemini-embedding-001` answers 3072; smaller keeps tests light). */
export const STUB_EMBEDDING_DIMENSIONS = 768;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function partsOf(content: unknown): Json[] {
  return isObject(content) && Array.isArray(content.parts) ? content.parts.filter(isObject) : [];
}

function invalid(message: string): Refusal {
  return new Refusal(400, 'INVALID_ARGUMENT', message);
}

/** Gemini's checks of `contents`: roles, parts, signatures of the current turn, function responses. */
function checkContents(body: Json, model: string, signatures: Set<string>): Refusal | undefined {
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified');
  for (const [i, content] of contents.entries()) {
    if (!isObject(content)) return invalid(`* GenerateContentRequest.contents[${i}]: must be an object`);
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') {
      return invalid(`Please use a valid role: user, model. (contents[${i}].role is ${JSON.stringify(content.role)})`);
    }
    if (partsOf(content).length === 0) return invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
  }
  for (const [i, content] of contents.entries()) {
    const calls = partsOf(content).filter((part) => part.functionCall !== undefined).length;
    if (calls === 0) continue;
    const responses = partsOf(contents[i + 1]).filter((part) => part.functionResponse !== undefined).length;
    if (i + 1 < contents.length && responses !== calls) {
      return invalid('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
    }
  }
  if (!model.startsWith('gemini-3')) return undefined;
  // The current turn starts after the last user turn that is not only function responses.
  let start = 0;
  for (const [i, content] of contents.entries()) {
    const parts = partsOf(content);
    if ((content as Json).role !== 'model' && parts.some((part) => part.functionResponse === undefined)) start = i + 1;
  }
  for (const [i, content] of contents.entries()) {
    const parts = partsOf(content);
    for (const part of parts) {
      const signature = part.thoughtSignature;
      if (typeof signature === 'string' && signature !== SKIP_SIGNATURE && !signatures.has(signature)) {
        return invalid(`Corrupted thought signature in contents[${i}].`);
      }
    }
    if (i < start) continue;
    const firstCall = parts.find((part) => part.functionCall !== undefined);
    if (firstCall !== undefined && typeof firstCall.thoughtSignature !== 'string') {
      return invalid(`Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String((firstCall.functionCall as Json).name)}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`);
    }
  }
  return undefined;
}

function checkGenerate(body: Json, model: string, signatures: Set<string>): Refusal | undefined {
  for (const field of Object.keys(body)) {
    if (!GENERATE_FIELDS.has(field)) return invalid(`Invalid JSON payload received. Unknown name "${field}": Cannot find field.`);
  }
  return checkContents(body, model, signatures);
}

function textOf(content: unknown): string {
  return partsOf(content)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function embedValues(request: Json): { values: number[] } {
  const dims = typeof request.outputDimensionality === 'number' ? request.outputDimensionality : STUB_EMBEDDING_DIMENSIONS;
  return { values: stubEmbedding(textOf(request.content), dims) };
}

/** Vertex AI's `:predict` answer for one text: the vector and Google's token count (here: the text's words). */
export function stubPrediction(text: string, dimensions = STUB_EMBEDDING_DIMENSIONS): Json {
  return { embeddings: { values: stubEmbedding(text, dimensions), statistics: { token_count: stubTokenCount(text), truncated: false } } };
}

/** What the stub reports as a text's token count on Vertex AI: its words. */
export function stubTokenCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** `:predict` (Vertex AI's Text Embeddings API): one instance with a `content` text, as gemini-embedding-001 takes. */
function checkPredict(body: Json): Refusal | undefined {
  const instances = body.instances;
  if (!Array.isArray(instances) || instances.length === 0) return invalid('instances is not specified');
  if (instances.length > 1) return invalid('Only one instance per request is supported for gemini-embedding-001.');
  if (!isObject(instances[0]) || typeof instances[0].content !== 'string') return invalid('instances[0].content must be a string');
  return undefined;
}

function predictAnswer(body: Json): Json {
  const instance = (body.instances as Json[])[0]!;
  const parameters = isObject(body.parameters) ? body.parameters : {};
  const dims = typeof parameters.outputDimensionality === 'number' ? parameters.outputDimensionality : STUB_EMBEDDING_DIMENSIONS;
  return { predictions: [stubPrediction(instance.content as string, dims)], metadata: { billableCharacterCount: (instance.content as string).length } };
}

function checkEmbed(body: Json, model: string, method: GeminiMethod): Refusal | undefined {
  if (method === 'predict') return checkPredict(body);
  const requests = method === 'embedContent' ? [body] : body.requests;
  if (!Array.isArray(requests) || requests.length === 0) return invalid('* BatchEmbedContentsRequest.requests: requests is not specified');
  for (const [i, request] of requests.entries()) {
    if (!isObject(request) || partsOf(request.content).length === 0) return invalid(`* requests[${i}].content: content is not specified`);
    if (method === 'batchEmbedContents' && request.model !== `models/${model}`) {
      return invalid(`* BatchEmbedContentsRequest.requests[${i}].model: model must be "models/${model}", as in the URL`);
    }
  }
  return undefined;
}

/** The answer of an unscripted generate call: `Gemini says: <last user text>`. */
export function defaultChunks(body: Json, model: string): Json[] {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const text = `Gemini says: ${textOf(contents.at(-1)) || 'hello'}`;
  const head = text.slice(0, 6);
  const usage = { promptTokenCount: 11, candidatesTokenCount: 5, totalTokenCount: 16 };
  return [
    { candidates: [{ content: { parts: [{ text: head }], role: 'model' }, index: 0 }], usageMetadata: { promptTokenCount: 11, totalTokenCount: 11 }, modelVersion: model, responseId: 'stub-default' },
    { candidates: [{ content: { parts: [{ text: text.slice(6) }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: usage, modelVersion: model, responseId: 'stub-default' },
  ];
}

/** The stream chunks merged into the one answer `generateContent` gives. */
export function mergeChunks(chunks: readonly Json[]): Json {
  const last = chunks.at(-1) ?? {};
  const parts: Json[] = [];
  for (const chunk of chunks) {
    const candidate = (chunk.candidates as Json[] | undefined)?.[0];
    parts.push(...partsOf(candidate?.content));
  }
  const lastCandidate = (last.candidates as Json[] | undefined)?.[0];
  if (lastCandidate === undefined) return last;
  return { ...last, candidates: [{ ...lastCandidate, content: { parts, role: 'model' } }] };
}

/** Remembers the signatures a reply sends, so they are accepted back. */
function learnSignatures(value: unknown, signatures: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) learnSignatures(item, signatures);
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'thoughtSignature' && typeof item === 'string') signatures.add(item);
      else learnSignatures(item, signatures);
    }
  }
}

function answer(stub: GeminiStub, res: ServerResponse, request: GeminiRequest, body: Json): void {
  const method = request.method!;
  const embedding = method === 'embedContent' || method === 'batchEmbedContents' || method === 'predict';
  const reply = (embedding ? stub.embedScript : stub.script).shift();
  if (reply?.kind === 'google') return writeGoogleError(res, new Refusal(reply.status, reply.googleStatus, reply.message, reply.details));
  if (reply?.kind === 'json') {
    learnSignatures(reply.body, stub.signatures);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=UTF-8', ...reply.headers });
    res.end(JSON.stringify(reply.body, null, 2));
    return;
  }
  if (embedding) {
    const out =
      method === 'predict' ? predictAnswer(body) : method === 'embedContent' ? { embedding: embedValues(body) } : { embeddings: (body.requests as Json[]).map(embedValues) };
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(out));
    return;
  }
  const chunks = reply?.kind === 'sse' ? (reply.chunks as Json[]) : defaultChunks(body, request.model!);
  learnSignatures(chunks, stub.signatures);
  if (method === 'generateContent') {
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(mergeChunks(chunks), null, 2));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(toGeminiSse(chunks));
  if (reply?.kind === 'sse' && reply.cut) res.destroy();
  else res.end();
}

function check(stub: GeminiStub, request: GeminiRequest, method: string | undefined): Refusal | undefined {
  if (method !== 'POST') return new Refusal(405, 'INVALID_ARGUMENT', 'POST only');
  const url = new URL(request.url, 'http://stub');
  const onVertex = VERTEX_PATH.exec(url.pathname);
  if (onVertex) {
    request.vertex = { projectId: decodeURIComponent(onVertex[1]!), region: decodeURIComponent(onVertex[2]!) };
    request.model = decodeURIComponent(onVertex[3]!);
    request.method = onVertex[4] as GeminiMethod;
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer === undefined || !stub.tokens.has(bearer)) {
      return new Refusal(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    return checkBody(stub, request, url);
  }
  const match = PATH.exec(url.pathname);
  if (!match) return new Refusal(404, 'NOT_FOUND', `no such path ${url.pathname}`);
  request.model = decodeURIComponent(match[1]!);
  request.method = match[2] as GeminiMethod;
  const key = request.headers['x-goog-api-key'];
  if (key === undefined) return new Refusal(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
  if (!stub.keys.has(key)) {
    return new Refusal(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
    ]);
  }
  return checkBody(stub, request, url);
}

function checkBody(stub: GeminiStub, request: GeminiRequest, url: URL): Refusal | undefined {
  if (request.method === 'streamGenerateContent' && url.searchParams.get('alt') !== 'sse') return invalid('the stub streams with alt=sse only');
  if (request.json === undefined) return invalid('Invalid JSON payload received.');
  if (request.method === 'generateContent' || request.method === 'streamGenerateContent') return checkGenerate(request.json, request.model!, stub.signatures);
  return checkEmbed(request.json, request.model!, request.method!);
}

/** Starts the stub; `keys` are the API keys it accepts, `tokens` the Bearer tokens of its Vertex AI path. */
export async function startGeminiStub(init: { keys?: string[]; tokens?: string[] } = {}): Promise<GeminiStub> {
  const sockets = new Set<Socket>();
  const stub: GeminiStub = {
    baseURL: '',
    requests: [],
    script: [],
    embedScript: [],
    keys: new Set(init.keys ?? []),
    tokens: new Set(init.tokens ?? []),
    signatures: new Set(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const request: GeminiRequest = { url: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') };
      try {
        const json: unknown = JSON.parse(request.body);
        if (isObject(json)) request.json = json;
      } catch {
        // Refused below.
      }
      stub.requests.push(request);
      const refused = check(stub, request, req.method);
      if (refused !== undefined) {
        request.problem = refused.message;
        return writeGoogleError(res, refused);
      }
      answer(stub, res, request, request.json!);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}
