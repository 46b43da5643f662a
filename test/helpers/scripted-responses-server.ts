/**
 * A stand-in for OpenAI's Responses API on 127.0.0.1 that records every
 * request (method, path, headers, JSON body, WebSocket upgrades) and answers
 * `POST /responses` with the next turn of a hand-written script: a complete
 * Responses SSE stream (the event grammar OpenAI sends), a JSON error before
 * the stream, or a stream cut before `response.completed`. Anything else is
 * answered as OpenAI would: 404 with an error envelope.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the server saw, in arrival order. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when there was none (or it was not JSON). */
  body: unknown;
  /** True for an HTTP upgrade (WebSocket handshake); the server refuses it with `upgradeStatus`. */
  upgrade: boolean;
}

/** A Responses output item as it appears in `output_item.done` and `response.completed.response.output`. */
export type OutputItem =
  | { type: 'message'; id: string; role: 'assistant'; status: 'completed'; content: { type: 'output_text'; text: string; annotations: [] }[] }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: 'completed' }
  | { type: 'custom_tool_call'; id: string; call_id: string; name: string; input: string; status: 'completed' }
  | { type: 'reasoning'; id: string; summary: { type: 'summary_text'; text: string }[]; encrypted_content: string | null };

/** What the server answers one `POST /responses` with. */
export type Turn =
  /** A complete stream: created, in_progress, the items' events, then `response.completed` (or `response.failed` with `fail`). */
  | { kind: 'stream'; items: OutputItem[]; fail?: { code: string; message: string } }
  /** The same stream, with the connection closed after `cutAfter` events (before `response.completed`). */
  | { kind: 'cut'; items: OutputItem[]; cutAfter: number }
  /** These events verbatim (SSE-framed, nothing added): for streams that break the grammar on purpose. */
  | { kind: 'events'; events: Record<string, unknown>[] }
  /** A JSON error envelope with this status, before any stream. */
  | { kind: 'error'; status: number; code: string; message: string };

export interface ScriptedResponsesServer {
  /** `http://127.0.0.1:<port>/v1`: a provider base URL (Codex posts `${baseURL}/responses`). */
  baseURL: string;
  requests: RecordedRequest[];
  /** Only the `POST …/responses` requests' bodies, in order. */
  responseBodies(): Record<string, unknown>[];
  close(): Promise<void>;
}

export interface ScriptOptions {
  /** One turn per `POST /responses`, in order; past the end, the last turn repeats. */
  turns: Turn[];
  /** Frame events as `data:` lines only, without `event:` lines. Default false. */
  dataOnly?: boolean;
  /** The status an HTTP upgrade (WebSocket handshake) is refused with. Default 426. */
  upgradeStatus?: number;
  model?: string;
}

const newId = (prefix: string): string => `${prefix}_${randomBytes(16).toString('hex')}`;

/** An assistant message item with one output_text part. */
export const messageItem = (text: string): OutputItem => ({
  type: 'message',
  id: newId('msg'),
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

export const functionCallItem = (name: string, args: unknown, callId = newId('call')): OutputItem => ({
  type: 'function_call',
  id: newId('fc'),
  call_id: callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});

export const customToolCallItem = (name: string, input: string, callId = newId('call')): OutputItem => ({
  type: 'custom_tool_call',
  id: newId('ctc'),
  call_id: callId,
  name,
  input,
  status: 'completed',
});

export const reasoningItem = (summary: string, encrypted: string | null = null): OutputItem => ({
  type: 'reasoning',
  id: newId('rs'),
  summary: [{ type: 'summary_text', text: summary }],
  encrypted_content: encrypted,
});

/** Splits a string in two halves so every item streams at least two deltas. */
function halves(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter((part) => part.length > 0);
}

/** The events OpenAI streams for one output item at `outputIndex` (added, deltas, done). */
function itemEvents(item: OutputItem, outputIndex: number): Record<string, unknown>[] {
  const base = { output_index: outputIndex, item_id: item.id };
  switch (item.type) {
    case 'message': {
      const text = item.content[0]?.text ?? '';
      const part = { type: 'output_text', text: '', annotations: [] };
      return [
        { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } },
        { type: 'response.content_part.added', ...base, content_index: 0, part },
        ...halves(text).map((delta) => ({ type: 'response.output_text.delta', ...base, content_index: 0, delta, logprobs: [] })),
        { type: 'response.output_text.done', ...base, content_index: 0, text, logprobs: [] },
        { type: 'response.content_part.done', ...base, content_index: 0, part: { ...part, text } },
        { type: 'response.output_item.done', output_index: outputIndex, item },
      ];
    }
    case 'function_call':
      return [
        { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, arguments: '', status: 'in_progress' } },
        ...halves(item.arguments).map((delta) => ({ type: 'response.function_call_arguments.delta', ...base, delta })),
        { type: 'response.function_call_arguments.done', ...base, arguments: item.arguments, name: item.name },
        { type: 'response.output_item.done', output_index: outputIndex, item },
      ];
    case 'custom_tool_call':
      return [
        { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, input: '', status: 'in_progress' } },
        ...halves(item.input).map((delta) => ({ type: 'response.custom_tool_call_input.delta', ...base, delta })),
        { type: 'response.custom_tool_call_input.done', ...base, input: item.input },
        { type: 'response.output_item.done', output_index: outputIndex, item },
      ];
    case 'reasoning': {
      const text = item.summary[0]?.text ?? '';
      const part = { type: 'summary_text', text: '' };
      return [
        { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, summary: [], encrypted_content: null } },
        { type: 'response.reasoning_summary_part.added', ...base, summary_index: 0, part },
        ...halves(text).map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...base, summary_index: 0, delta })),
        { type: 'response.reasoning_summary_text.done', ...base, summary_index: 0, text },
        { type: 'response.reasoning_summary_part.done', ...base, summary_index: 0, part: { ...part, text } },
        { type: 'response.output_item.done', output_index: outputIndex, item },
      ];
    }
  }
}

/** Every event of a turn, in order, with `sequence_number` counted from 0. */
export function turnEvents(items: OutputItem[], model: string, fail?: { code: string; message: string }): Record<string, unknown>[] {
  const id = newId('resp');
  const createdAt = Math.floor(Date.now() / 1000);
  const response = (status: string, output: OutputItem[]) => ({
    id,
    object: 'response',
    created_at: createdAt,
    status,
    error: null,
    incomplete_details: null,
    model,
    output,
    usage: null,
  });
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const terminal = fail
    ? { type: 'response.failed', response: { ...response('failed', items), error: fail } }
    : { type: 'response.completed', response: { ...response('completed', items), usage } };
  const events = [
    { type: 'response.created', response: response('in_progress', []) },
    { type: 'response.in_progress', response: response('in_progress', []) },
    ...items.flatMap((item, index) => itemEvents(item, index)),
    terminal,
  ];
  return events.map((event, index) => ({ ...event, sequence_number: index }));
}

const frame = (event: Record<string, unknown>, dataOnly: boolean): string =>
  `${dataOnly ? '' : `event: ${String(event.type)}\n`}data: ${JSON.stringify(event)}\n\n`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sendError(res: ServerResponse, status: number, code: string | null, message: string, type = 'invalid_request_error'): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

function answerTurn(res: ServerResponse, turn: Turn, model: string, dataOnly: boolean): void {
  if (turn.kind === 'error') {
    sendError(res, turn.status, turn.code, turn.message, turn.status >= 500 ? 'server_error' : 'invalid_request_error');
    return;
  }
  const events = turn.kind === 'events' ? turn.events : turnEvents(turn.items, model, turn.kind === 'stream' ? turn.fail : undefined);
  const sent = turn.kind === 'cut' ? events.slice(0, turn.cutAfter) : events;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': newId('req') });
  res.end(sent.map((event) => frame(event, dataOnly)).join(''));
}

/** Starts the server on an ephemeral loopback port. */
export async function startScriptedResponsesServer(options: ScriptOptions): Promise<ScriptedResponsesServer> {
  const requests: RecordedRequest[] = [];
  const model = options.model ?? 'scripted-model';
  let turnIndex = 0;
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body: parseJson(text), upgrade: false });
      if (req.method === 'POST' && path.endsWith('/responses')) {
        const turn = options.turns[Math.min(turnIndex, options.turns.length - 1)];
        turnIndex++;
        if (turn) answerTurn(res, turn, model, options.dataOnly ?? false);
        else sendError(res, 500, null, 'the script has no turns', 'server_error');
        return;
      }
      sendError(res, 404, 'unknown_url', `Unknown request URL: ${req.method ?? ''} ${path}.`);
    })().catch(() => res.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? '', path, headers: req.headers, body: undefined, upgrade: true });
    const status = options.upgradeStatus ?? 426;
    const body = JSON.stringify({ error: { message: 'WebSocket is not supported here', type: 'invalid_request_error', param: null, code: null } });
    socket.end(`HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    responseBodies: () =>
      requests
        .filter((r) => r.method === 'POST' && r.path.endsWith('/responses') && !r.upgrade)
        .map((r) => (typeof r.body === 'object' && r.body !== null ? (r.body as Record<string, unknown>) : {})),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
