/**
 * Two scripted upstreams for the guard suites, one per wire format, that
 * record what they were sent and answer with a text the test sets: JSON,
 * or a stream whose text is cut into the deltas the test gives.
 */
import type { StubEvent, StubReply, StubUpstream } from './stub-upstream.js';
import { startStubUpstream } from './stub-upstream.js';

/** What the next answers say: the deltas of the answer text (joined for a whole answer). */
export interface GuardScript {
  deltas: string[];
}

const USAGE_CHAT = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
const USAGE_MESSAGES = { input_tokens: 11, output_tokens: 7 };

function chatReply(body: string, script: GuardScript): StubReply {
  const text = script.deltas.join('');
  const parsed = JSON.parse(body) as { stream?: boolean; model: string };
  if (parsed.stream !== true) {
    return {
      kind: 'json',
      body: {
        id: 'chatcmpl-up', object: 'chat.completion', created: 1, model: parsed.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null }],
        usage: USAGE_CHAT,
      },
    };
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: unknown) =>
    JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 1, model: parsed.model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) });
  const events: StubEvent[] = [{ data: chunk({ role: 'assistant', content: '' }, null) }];
  for (const delta of script.deltas) events.push({ data: chunk({ content: delta }, null) });
  events.push({ data: chunk({}, 'stop') });
  events.push({ data: JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 1, model: parsed.model, choices: [], usage: USAGE_CHAT }) });
  events.push({ data: '[DONE]' });
  return { kind: 'sse', events };
}

function messagesReply(body: string, script: GuardScript): StubReply {
  const text = script.deltas.join('');
  const parsed = JSON.parse(body) as { stream?: boolean; model: string };
  const message = { id: 'msg_up', type: 'message', role: 'assistant', model: parsed.model, stop_sequence: null };
  if (parsed.stream !== true) {
    return { kind: 'json', body: { ...message, content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: USAGE_MESSAGES } };
  }
  const event = (type: string, data: Record<string, unknown>): StubEvent => ({ event: type, data: JSON.stringify({ type, ...data }) });
  const events: StubEvent[] = [
    event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 11, output_tokens: 0 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (const delta of script.deltas) events.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: delta } }));
  events.push(event('content_block_stop', { index: 0 }));
  events.push(event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } }));
  events.push(event('message_stop', {}));
  return { kind: 'sse', events };
}

/** A chat-format and a messages-format stub answering `script`. */
export async function startGuardUpstreams(script: GuardScript): Promise<{ chat: StubUpstream; messages: StubUpstream; close(): Promise<void> }> {
  const chat = await startStubUpstream((request) => chatReply(request.body, script));
  const messages = await startStubUpstream((request) => messagesReply(request.body, script));
  return { chat, messages, close: async () => { await chat.close(); await messages.close(); } };
}
