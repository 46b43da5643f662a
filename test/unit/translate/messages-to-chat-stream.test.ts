import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { chatCompletionChunkSchema, chatErrorBodySchema, type ChatUsage } from '../../../src/schemas/index.js';
import { createMessagesToChatStream, type MessagesToChatStreamOptions } from '../../../src/translate/messages-to-chat-stream.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { accumulateChatChunks, decodeEvents } from './support/stream-harness.js';

const ev = (payload: Record<string, unknown>): SseEvent => ({ event: String(payload.type), data: JSON.stringify(payload) });
const start = ev({
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, cache_read_input_tokens: 2048, output_tokens: 1 } },
});
const blockStart = (index: number, block: Record<string, unknown>) => ev({ type: 'content_block_start', index, content_block: block });
const delta = (index: number, d: Record<string, unknown>) => ev({ type: 'content_block_delta', index, delta: d });
const blockStop = (index: number) => ev({ type: 'content_block_stop', index });
const messageDelta = (stopReason: string, output = 20) => ev({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: output } });
const stop = ev({ type: 'message_stop' });

function run(events: readonly SseEvent[], options: Partial<MessagesToChatStreamOptions> = {}) {
  const transform = createMessagesToChatStream({ model: 'vendora-x', id: 'chatcmpl-1', created: 1, includeUsage: true, ...options });
  const perEvent = events.map((event) => [...transform.push(event)]);
  const tail = [...transform.end()];
  return { perEvent, tail, all: [...perEvent.flat(), ...tail] };
}

function chunksOf(encoded: readonly string[]) {
  return decodeEvents(encoded)
    .filter((event) => event.data !== '[DONE]')
    .map((event) => chatCompletionChunkSchema.parse(event.data));
}

describe('createMessagesToChatStream', () => {
  it('keeps parallel tool calls apart: block indexes map to tool_calls 0..k', () => {
    const { all } = run([
      start,
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Two lookups.' }),
      delta(0, { type: 'signature_delta', signature: 'SIG' }),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_a', name: 'weather', input: {} }),
      delta(1, { type: 'input_json_delta', partial_json: '' }),
      delta(1, { type: 'input_json_delta', partial_json: '{"city":' }),
      delta(1, { type: 'input_json_delta', partial_json: '"Paris"}' }),
      blockStop(1),
      blockStart(2, { type: 'tool_use', id: 'toolu_b', name: 'weather', input: {} }),
      delta(2, { type: 'input_json_delta', partial_json: '{"city":"Rome"}' }),
      blockStop(2),
      messageDelta('tool_use'),
      stop,
    ]);
    const folded = accumulateChatChunks(chunksOf(all));
    const message = folded.choices[0]?.message;
    expect(message?.content).toBeNull();
    expect(message?.reasoning_content).toBe('Two lookups.');
    expect(message?.thinking_blocks).toEqual([{ type: 'thinking', thinking: 'Two lookups.', signature: 'SIG' }]);
    expect(message?.tool_calls).toEqual([
      { id: 'toolu_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
      { id: 'toolu_b', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
    ]);
    expect(folded.choices[0]?.finish_reason).toBe('tool_calls');
    expect(folded.usage).toMatchObject({ prompt_tokens: 2058, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 2048 } });
  });

  it('is incremental: at most one chunk per event until message_stop, nothing for ping, block stops and empty fragments', () => {
    const { perEvent } = run([
      start,
      ev({ type: 'ping' }),
      blockStart(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'Hi' }),
      delta(0, { type: 'citations_delta', citation: { type: 'char_location' } }),
      blockStop(0),
      messageDelta('end_turn'),
      stop,
    ]);
    expect(perEvent.map((chunks) => chunks.length)).toEqual([0, 0, 1, 1, 0, 0, 1, 2]);
  });

  it('an upstream error event becomes the chat error form, and the stream stops', () => {
    const transform = createMessagesToChatStream({ model: 'm', id: 'c', created: 1, includeUsage: false });
    [...transform.push(start)];
    const out = [...transform.push({ event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' })];
    expect(out).toHaveLength(1);
    expect(chatErrorBodySchema.parse(decodeEvents(out)[0]?.data)).toEqual({
      error: { message: 'Overloaded', type: 'server_error', param: null, code: 'overloaded' },
    });
    expect([...transform.push(blockStart(0, { type: 'text', text: '' }))]).toEqual([]);
    expect([...transform.end()]).toEqual([]);
  });

  it('error() renders a relay failure once', () => {
    const transform = createMessagesToChatStream({ model: 'm', id: 'c', created: 1, includeUsage: false });
    const out = [...transform.error(new GatewayError('UPSTREAM_TIMEOUT', 'Upstream timed out.'))];
    expect(decodeEvents(out)[0]?.data).toEqual({ error: { message: 'Upstream timed out.', type: 'timeout_error', param: null, code: 'timeout' } });
    expect([...transform.error(new GatewayError('INTERNAL', 'again'))]).toEqual([]);
  });

  it('a stream cut before message_stop ends with an error, never a silent [DONE]', () => {
    const { tail } = run([start, blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'Hi' })]);
    expect(tail).toHaveLength(1);
    expect(decodeEvents(tail)[0]?.data).toMatchObject({ error: { type: 'server_error' } });
  });

  it('a payload that is not JSON is a stream error', () => {
    const transform = createMessagesToChatStream({ model: 'm', id: 'c', created: 1, includeUsage: false });
    expect(decodeEvents([...transform.push({ event: 'content_block_delta', data: '{oops' })])[0]?.data).toMatchObject({ error: {} });
  });

  it('message_stop without message_delta still gives a finish_reason', () => {
    const chunks = chunksOf(run([start, blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'Hi' }), blockStop(0), stop]).all);
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
  });

  it('re-attaches the JSON prefill once, and not when the upstream already sent the whole object', () => {
    const text = (parts: string[]) => [start, blockStart(0, { type: 'text', text: '' }), ...parts.map((t) => delta(0, { type: 'text_delta', text: t })), blockStop(0), messageDelta('end_turn'), stop];
    const content = (parts: string[]) => accumulateChatChunks(chunksOf(run(text(parts), { jsonPrefill: '{' }).all)).choices[0]?.message.content;
    expect(content(['"a": 1', ', "b": 2}'])).toBe('{"a": 1, "b": 2}');
    expect(content(['\n', '"a": 1}'])).toBe('\n{"a": 1}');
    expect(content(['{"a": 1}'])).toBe('{"a": 1}');
  });

  it('fan-out hooks: no [DONE] when asked, usage handed to onUsage', () => {
    const usages: ChatUsage[] = [];
    const { all } = run([start, messageDelta('end_turn', 3), stop], { emitDone: false, includeUsage: false, index: 2, onUsage: (usage) => usages.push(usage) });
    expect(all.some((text) => text.includes('[DONE]'))).toBe(false);
    expect(usages).toEqual([{ prompt_tokens: 2058, completion_tokens: 3, total_tokens: 2061, prompt_tokens_details: { cached_tokens: 2048 } }]);
    expect(chunksOf(all)[0]?.choices[0]).toMatchObject({ index: 2, delta: { role: 'assistant', content: null }, finish_reason: 'stop' });
  });

  it('redacted thinking is carried in the thinking_blocks extension', () => {
    const chunks = chunksOf(run([start, blockStart(0, { type: 'redacted_thinking', data: 'ENC' }), blockStop(0), messageDelta('end_turn'), stop]).all);
    expect(chunks[0]?.choices[0]?.delta.thinking_blocks).toEqual([{ type: 'redacted_thinking', data: 'ENC' }]);
  });
});
