/**
 * One scripted upstream on 127.0.0.1 that answers both wire formats and
 * injects a fault chosen by the model id of the request (`<prefix>-<fault>`,
 * e.g. `chat-html`), so one stub serves every fault of the fault matrix.
 * `*-good` models get a valid answer (JSON or SSE, as asked). It never
 * echoes the request (keys, headers, URL).
 */
import type { ServerResponse } from 'node:http';
import { type StubEvent, type StubReply, type StubUpstream, startStubUpstream, writeChunk } from './stub-upstream.js';

/** The faults an upstream can show (see the README's fault table). */
export const FAULTS = [
  'refused',
  'never-answers',
  'headers-then-silence',
  'silence-mid-stream',
  'cut-mid-stream',
  'truncated-json',
  'html-page',
  'wrong-content-type',
  '5xx',
  '429',
  '429-retry-after',
  '529',
  '529-retry-after',
] as const;

export type Fault = (typeof FAULTS)[number];

type Format = 'chat' | 'messages';

function goodJson(format: Format, model: string): unknown {
  if (format === 'chat') {
    return {
      id: 'chatcmpl-good', object: 'chat.completion', created: 1, model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'all good' }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    };
  }
  return {
    id: 'msg_good', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'all good' }],
    stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 2 },
  };
}

/** A whole stream's events; the first `head` of them are the part sent before a mid-stream fault. */
function goodEvents(format: Format, model: string): StubEvent[] {
  if (format === 'chat') {
    const chunk = (delta: object, finish: string | null) =>
      JSON.stringify({ id: 'chatcmpl-good', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
    return [
      { data: chunk({ role: 'assistant', content: '' }, null) },
      { data: chunk({ content: 'all ' }, null) },
      { data: chunk({ content: 'good' }, null) },
      { data: chunk({}, 'stop') },
      { data: '[DONE]' },
    ];
  }
  const event = (name: string, data: object): StubEvent => ({ event: name, data: JSON.stringify({ type: name, ...data }) });
  return [
    event('message_start', { message: { id: 'msg_good', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'all ' } }),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'good' } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
    event('message_stop', {}),
  ];
}

/** Events sent before a mid-stream fault: the start and one piece of text. */
const EVENTS_BEFORE_FAULT = 3;

function errorBody(format: Format, status: number): unknown {
  const message = `Stub error ${status}`;
  if (format === 'chat') return { error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', param: null, code: null } };
  const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error';
  return { type: 'error', error: { type, message } };
}

/** A JSON answer whose head promises the whole body, then `after` (silence or a cut) half-way. */
function halfJson(format: Format, model: string, after: 'hang' | 'cut' | 'end'): StubReply {
  return {
    kind: 'handler',
    handle: async (_req, res: ServerResponse) => {
      const text = JSON.stringify(goodJson(format, model));
      // 'end': a chunked body that ends cleanly, cut short; otherwise the head announces the whole length.
      res.writeHead(200, { 'content-type': 'application/json', ...(after === 'end' ? {} : { 'content-length': String(Buffer.byteLength(text)) }) });
      await writeChunk(res, text.slice(0, Math.floor(text.length / 2)));
      if (after === 'end') res.end();
      else if (after === 'cut') res.socket?.destroySoon();
    },
  };
}

/** The reply for one request: `fault` in `format`, streamed or not. */
export function faultReply(fault: Fault | 'good', format: Format, model: string, stream: boolean): StubReply {
  const sseHead = { 'content-type': 'text/event-stream' };
  switch (fault) {
    case 'good':
      return stream ? { kind: 'sse', events: goodEvents(format, model) } : { kind: 'json', body: goodJson(format, model) };
    case 'refused':
      throw new Error('a refused connection is a closed port, not a reply');
    case 'never-answers':
      return { kind: 'hang' };
    case 'headers-then-silence':
      return stream
        ? { kind: 'sse', events: [], then: 'hang' }
        : { kind: 'handler', handle: (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders() };
    case 'silence-mid-stream':
      return stream ? { kind: 'sse', headers: sseHead, events: goodEvents(format, model).slice(0, EVENTS_BEFORE_FAULT), then: 'hang' } : halfJson(format, model, 'hang');
    case 'cut-mid-stream':
      return stream ? { kind: 'sse', events: goodEvents(format, model).slice(0, EVENTS_BEFORE_FAULT), then: 'cut' } : halfJson(format, model, 'cut');
    case 'truncated-json':
      return halfJson(format, model, 'end');
    case 'html-page':
      return { kind: 'text', headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><title>502 Bad Gateway</title><h1>Bad Gateway</h1>' };
    case 'wrong-content-type':
      // JSON to a streamed request, an event stream to a non-streamed one.
      return stream ? { kind: 'json', body: goodJson(format, model) } : { kind: 'sse', events: goodEvents(format, model) };
    case '5xx':
      return { kind: 'json', status: 500, body: errorBody(format, 500) };
    case '429':
      return { kind: 'json', status: 429, body: errorBody(format, 429) };
    case '429-retry-after':
      return { kind: 'json', status: 429, headers: { 'retry-after': '1' }, body: errorBody(format, 429) };
    case '529':
      return { kind: 'json', status: 529, body: errorBody(format, 529) };
    case '529-retry-after':
      return { kind: 'json', status: 529, headers: { 'retry-after': '1' }, body: errorBody(format, 529) };
  }
}

/** Starts the stub: the fault is the model id after its first `-`. */
export function startFaultStub(): Promise<StubUpstream> {
  return startStubUpstream((request) => {
    const body = JSON.parse(request.body) as { model: string; stream?: boolean };
    const format: Format = request.url.endsWith('/chat/completions') ? 'chat' : 'messages';
    const fault = body.model.slice(body.model.indexOf('-') + 1) as Fault | 'good';
    return faultReply(fault, format, body.model, body.stream === true);
  });
}
