import { describe, expect, it } from 'vitest';
import { messagesErrorBodySchema, messagesStreamEventSchema } from '../../../src/schemas/index.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { accumulateMessagesEvents, decodeEvents } from './support/stream-harness.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-9', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
});
const usage = (prompt: number, completion: number, cached = 0): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-9', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached } } }),
});

function run(events: readonly SseEvent[]) {
  const transform = createChatToMessagesStream({ model: 'vendora-x' });
  const encoded = [...events.flatMap((event) => [...transform.push(event)]), ...transform.end()];
  const decoded = decodeEvents(encoded);
  for (const event of decoded) expect(event.event).toBe((event.data as { type: string }).type);
  return decoded.map((event) => event.data as Record<string, unknown>);
}

describe('createChatToMessagesStream', () => {
  it('reasoning, text and tool calls become blocks 0, 1, 2 in order, with a signature delta when the upstream sends one', () => {
    const events = run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'Think' }),
      chunk({ reasoning_content: 'ing.' }),
      chunk({ thinking_blocks: [{ type: 'thinking', thinking: 'Thinking.', signature: 'SIG' }] }),
      chunk({ content: 'Calling.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] }),
      chunk({}, 'tool_calls'),
      usage(120, 30, 100),
    ]);
    for (const event of events) messagesStreamEventSchema.parse(event);
    expect(events.map((event) => `${String(event.type)}${event.index === undefined ? '' : ` ${String(event.index)}`}`)).toEqual([
      'message_start',
      'content_block_start 0', 'content_block_delta 0', 'content_block_delta 0', 'content_block_delta 0', 'content_block_stop 0',
      'content_block_start 1', 'content_block_delta 1', 'content_block_stop 1',
      'content_block_start 2', 'content_block_delta 2', 'content_block_stop 2',
      'message_delta', 'message_stop',
    ]);
    const message = accumulateMessagesEvents(events);
    expect(message.id).toBe('msg_chatcmpl-9');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Thinking.', signature: 'SIG' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool_use', id: 'call_1', name: 'f', input: { x: 1 } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 20, cache_read_input_tokens: 100, output_tokens: 30 });
  });

  it('interleaved tool call fragments end the stream with an error instead of corrupting arguments', () => {
    const events = run([
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(messagesErrorBodySchema.parse(last).error.message).toContain('interleaved');
    expect(events.filter((event) => event.type === 'message_stop')).toHaveLength(0);
  });

  it('an upstream error chunk becomes the vendor error event', () => {
    const events = run([chunk({ content: 'Hi' }), { data: '{"error":{"message":"Rate limited","type":"rate_limit_error","param":null,"code":null}}' }]);
    expect(events.at(-1)).toEqual({ type: 'error', error: { type: 'api_error', message: 'Rate limited' } });
  });

  it('[DONE] pushed directly ends the message; an empty stream is still a complete message', () => {
    const transform = createChatToMessagesStream({ model: 'm', id: 'msg_fixed' });
    const events = decodeEvents([...transform.push({ data: '[DONE]' })]).map((event) => event.data as Record<string, unknown>);
    expect(events.map((event) => event.type)).toEqual(['message_start', 'message_delta', 'message_stop']);
    expect(events[1]).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 0 } });
    expect([...transform.end()]).toEqual([]);
  });

  it('a refusal is text with stop_reason refusal', () => {
    const message = accumulateMessagesEvents(run([chunk({ role: 'assistant', refusal: "I can't help with that." }), chunk({}, 'stop')]));
    expect(message.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
    expect(message.stop_reason).toBe('refusal');
  });
});
