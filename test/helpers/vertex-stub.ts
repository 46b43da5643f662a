/**
 * A Vertex AI stub on 127.0.0.1:0 (node:http) speaking the platform's wire
 * format for the vendor's models: it checks each request's path
 * (`/v1/projects/{p}/locations/{l}/publishers/anthropic/models/{m}:rawPredict`,
 * `:streamRawPredict`, `count-tokens:rawPredict`), body (`anthropic_version`,
 * no `model` except for count-tokens, no field Vertex refuses), betas (an
 * unknown one is Vertex's 400) and `Authorization: Bearer`; it answers with
 * the vendor's message JSON, plain messages SSE, `{ input_tokens }`, and
 * errors in Google's envelope (`{"error":{"code","message","status"}}`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const PROJECT = 'modelgate-test-123';
export const LOCATION = 'us-east5';

/** The betas the stub accepts; any other is refused with 400 as Vertex does. */
const KNOWN_BETAS = new Set(['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07']);
/** Fields Vertex refuses with "Extra inputs are not permitted". */
const EXTRA_FIELDS = ['output_config', 'context_management', 'mcp_servers', 'container', 'service_tier', 'model'];

export interface VertexRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** From the path. */
  project?: string;
  location?: string;
  model?: string;
  method?: string;
  /** Why the request was refused (path, body, beta or token), if it was. */
  problem?: string;
}

export type VertexReply =
  | { kind: 'google'; status: number; googleStatus: string; message: string }
  | { kind: 'json'; status?: number; body: unknown }
  | { kind: 'sse'; events: readonly unknown[] };

export interface VertexStub {
  url: string;
  /** The base URL to give `vertexUpstream` (with `/v1`). */
  baseURL: string;
  requests: VertexRequest[];
  script: VertexReply[];
  /** Access tokens accepted. */
  tokens: Set<string>;
  close(): Promise<void>;
}

/** The messages events of a streamed answer of `text`. */
export function streamEvents(text: string, model = 'claude-sonnet-4-5'): unknown[] {
  return [
    { type: 'message_start', message: { id: 'msg_vrtx_01', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
    { type: 'message_stop' },
  ];
}

/** The message JSON rawPredict answers. */
export function messageJson(text: string, model = 'claude-sonnet-4-5'): unknown {
  return { id: 'msg_vrtx_01', type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 12, output_tokens: 3 } };
}

function googleError(res: ServerResponse, status: number, googleStatus: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code: status, message, status: googleStatus } }));
}

function writeSse(res: ServerResponse, events: readonly unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of events) res.write(`event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

const PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;

/** Why Vertex would refuse the request, or undefined. */
function check(stub: VertexStub, request: VertexRequest): { status: number; googleStatus: string; message: string } | undefined {
  const match = PATH.exec(request.url);
  if (!match) return { status: 404, googleStatus: 'NOT_FOUND', message: `no such path ${request.url}` };
  [request.project, request.location, request.model, request.method] = match.slice(1).map((part) => decodeURIComponent(part!));
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (token === undefined || !stub.tokens.has(token)) {
    return { status: 401, googleStatus: 'UNAUTHENTICATED', message: `Request had invalid authentication credentials (${request.headers.authorization ?? 'none'}).` };
  }
  const body = JSON.parse(request.body) as Record<string, unknown>;
  if (body.anthropic_version !== 'vertex-2023-10-16') return { status: 400, googleStatus: 'INVALID_ARGUMENT', message: 'anthropic_version: must be vertex-2023-10-16' };
  const counting = request.model === 'count-tokens';
  for (const field of EXTRA_FIELDS) {
    if (counting && field === 'model') continue;
    if (field in body) return { status: 400, googleStatus: 'INVALID_ARGUMENT', message: `${field}: Extra inputs are not permitted` };
  }
  if (counting && typeof body.model !== 'string') return { status: 400, googleStatus: 'INVALID_ARGUMENT', message: 'model: Field required' };
  for (const beta of (request.headers['anthropic-beta'] ?? '').split(',').filter(Boolean)) {
    if (!KNOWN_BETAS.has(beta.trim())) return { status: 400, googleStatus: 'INVALID_ARGUMENT', message: `Unexpected value(s) \`${beta}\` for the \`anthropic-beta\` header.` };
  }
  return undefined;
}

function answerByDefault(res: ServerResponse, request: VertexRequest): void {
  const body = JSON.parse(request.body) as { messages?: { content: unknown }[] };
  if (request.model === 'count-tokens') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ input_tokens: 42 }));
    return;
  }
  const last = body.messages?.at(-1)?.content;
  const text = `Vertex says: ${typeof last === 'string' ? last : 'hello'}`;
  if (request.method === 'streamRawPredict') return writeSse(res, streamEvents(text));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(messageJson(text)));
}

/** Starts the stub. */
export async function startVertexStub(init: { tokens?: string[] } = {}): Promise<VertexStub> {
  const sockets = new Set<Socket>();
  const stub: VertexStub = {
    url: '',
    baseURL: '',
    requests: [],
    script: [],
    tokens: new Set(init.tokens ?? []),
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
      const request: VertexRequest = { url: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') };
      stub.requests.push(request);
      const refused = req.method === 'POST' ? check(stub, request) : { status: 405, googleStatus: 'INVALID_ARGUMENT', message: 'POST only' };
      if (refused !== undefined) {
        request.problem = refused.message;
        return googleError(res, refused.status, refused.googleStatus, refused.message);
      }
      const reply = stub.script.shift();
      if (reply === undefined) return answerByDefault(res, request);
      if (reply.kind === 'google') return googleError(res, reply.status, reply.googleStatus, reply.message);
      if (reply.kind === 'sse') return writeSse(res, reply.events);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.baseURL = `${stub.url}/v1`;
  return stub;
}
