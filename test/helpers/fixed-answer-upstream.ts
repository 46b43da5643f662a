/**
 * In-process upstreams that always give one known answer (parallel tool
 * calls with arguments, and reasoning), as JSON or as an event stream
 * depending on what the call asks for. The answers are constants here, so
 * tests compare what a caller reads against them, not against the gateway's
 * own output. Each counts its model calls and keeps their bodies.
 */
import type { Upstream, UpstreamCall, UpstreamResponse } from 'modelgate';

/** The tool calls both answers make, in order. */
export const TOOL_CALLS = [
  { id: 'call_paris_01', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } },
  { id: 'call_oslo_02', name: 'get_weather', input: { city: 'Oslo', unit: 'celsius', days: 3 } },
] as const;

/** The chat upstream's reasoning (`reasoning_content`). */
export const CHAT_REASONING = 'Two cities were named, so ask for both at once.';
/** The messages upstream's signed thinking, its signature, and the redacted block's data. */
export const THINKING = 'Two cities: one tool call each, in parallel.';
export const SIGNATURE = 'sig-EqQBCkYIBxgCKkD0fixed0signature0value==';
export const REDACTED_DATA = 'EmwKAhgBEgy3redacted0thinking0blob0AAA=';
/** The text the messages answer carries before its tool calls. */
export const MESSAGES_TEXT = 'Checking the weather in both cities.';
export const USAGE = { input: 41, output: 23 } as const;

export interface FixedAnswerUpstream extends Upstream {
  /** Model calls sent so far. */
  readonly calls: number;
  /** The body of each model call, in order. */
  readonly bodies: Record<string, unknown>[];
}

const encoder = new TextEncoder();

function json(body: unknown): UpstreamResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: (async function* () { yield encoder.encode(JSON.stringify(body)); })() };
}

function sse(events: ReadonlyArray<{ event?: string; data: unknown }>, done: boolean): UpstreamResponse {
  const frames = events.map(({ event, data }) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
  if (done) frames.push('data: [DONE]\n\n');
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    // One frame per chunk, so the relay sees the events arrive one by one.
    body: (async function* () {
      for (const frame of frames) yield encoder.encode(frame);
    })(),
  };
}

/** Splits a string in two, so streamed arguments and reasoning arrive in pieces. */
function halves(text: string): [string, string] {
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

function chatAnswer(model: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-fixed-answer',
    object: 'chat.completion',
    created: 1_760_000_000,
    model,
    choices: [{
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        reasoning_content: CHAT_REASONING,
        tool_calls: TOOL_CALLS.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } })),
      },
      finish_reason: 'tool_calls',
    }],
    usage: { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output },
  };
}

function chatChunks(model: string, includeUsage: boolean): Array<{ data: unknown }> {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): { data: unknown } => ({
    data: { id: 'chatcmpl-fixed-answer', object: 'chat.completion.chunk', created: 1_760_000_000, model, choices: [{ index: 0, delta, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) },
  });
  const out = [chunk({ role: 'assistant', content: null })];
  for (const piece of halves(CHAT_REASONING)) out.push(chunk({ reasoning_content: piece }));
  TOOL_CALLS.forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of halves(JSON.stringify(call.input))) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  out.push(chunk({}, 'tool_calls'));
  if (includeUsage) {
    out.push({ data: { id: 'chatcmpl-fixed-answer', object: 'chat.completion.chunk', created: 1_760_000_000, model, choices: [], usage: { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output } } });
  }
  return out;
}

function messagesAnswer(model: string): Record<string, unknown> {
  return {
    id: 'msg_fixed_answer',
    type: 'message',
    role: 'assistant',
    model,
    content: [
      { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
      { type: 'redacted_thinking', data: REDACTED_DATA },
      { type: 'text', text: MESSAGES_TEXT },
      ...TOOL_CALLS.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: USAGE.input, output_tokens: USAGE.output },
  };
}

function messagesEvents(model: string): Array<{ event: string; data: unknown }> {
  const event = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, ...data } });
  const out = [
    event('message_start', { message: { id: 'msg_fixed_answer', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: USAGE.input, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    ...halves(THINKING).map((thinking) => event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking } })),
    event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } }),
    event('content_block_stop', { index: 0 }),
    event('content_block_start', { index: 1, content_block: { type: 'redacted_thinking', data: REDACTED_DATA } }),
    event('content_block_stop', { index: 1 }),
    event('content_block_start', { index: 2, content_block: { type: 'text', text: '' } }),
    ...halves(MESSAGES_TEXT).map((text) => event('content_block_delta', { index: 2, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index: 2 }),
  ];
  TOOL_CALLS.forEach((call, position) => {
    const index = 3 + position;
    out.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }));
    for (const partial_json of halves(JSON.stringify(call.input))) out.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
    out.push(event('content_block_stop', { index }));
  });
  out.push(event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: USAGE.output } }));
  out.push(event('message_stop', {}));
  return out;
}

/** An upstream of `format` answering every model call with the fixed answer, as JSON or as a stream as the call asks. */
export function fixedAnswerUpstream(format: 'chat' | 'messages', name = `fixed-${format}`): FixedAnswerUpstream {
  let calls = 0;
  const bodies: Record<string, unknown>[] = [];
  return {
    name,
    format,
    get calls() {
      return calls;
    },
    bodies,
    async send(call: UpstreamCall) {
      calls++;
      // A caller's body that passes through unchanged comes as bytes.
      const body = (call.rawBody ? JSON.parse(Buffer.from(call.rawBody).toString('utf8')) : (call.body ?? {})) as Record<string, unknown>;
      bodies.push(body);
      const model = typeof body.model === 'string' ? body.model : 'unknown';
      if (format === 'chat') {
        if (!call.stream) return json(chatAnswer(model));
        const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
        return sse(chatChunks(model, includeUsage), true);
      }
      return call.stream ? sse(messagesEvents(model), false) : json(messagesAnswer(model));
    },
  };
}
