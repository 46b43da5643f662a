/**
 * Property: for any reply, streaming it (cut into random deltas) through a
 * stream translator and folding the output gives the non-streamed
 * translation of the same reply, in both directions; and every output
 * event passes the target schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChatCompletion,
  type MessagesResponse,
  chatCompletionChunkSchema,
  messagesStreamEventSchema,
} from '../../../src/schemas/index.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { messagesToChatResponse } from '../../../src/translate/messages-to-chat-response.js';
import { createMessagesToChatStream } from '../../../src/translate/messages-to-chat-stream.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { accumulateChatChunks, accumulateMessagesEvents, decodeEvents, normalizeArguments, runTransform } from './support/stream-harness.js';

/** Cuts `text` at the given fractions (sorted, deduplicated). */
function cut(text: string, points: readonly number[]): string[] {
  const at = [...new Set(points.map((p) => Math.floor(p * text.length)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const index of [...at, text.length]) {
    if (index > from) pieces.push(text.slice(from, index));
    from = Math.max(from, index);
  }
  return pieces;
}

const points = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 });
const name = fc.stringMatching(/^[a-z][a-z_]{0,8}$/);
const input = fc.dictionary(name, fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean()), { maxKeys: 3 });

const messagesBlock = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), text: fc.string({ minLength: 1, maxLength: 40 }), points }),
  fc.record({ kind: fc.constant('thinking' as const), text: fc.string({ minLength: 1, maxLength: 40 }), signature: fc.base64String({ minLength: 4, maxLength: 20 }), points }),
  fc.record({ kind: fc.constant('tool' as const), id: name.map((n) => `toolu_${n}`), name, input, points }),
);

const messagesReply = fc.record({
  blocks: fc.array(messagesBlock, { maxLength: 5 }),
  stop: fc.constantFrom('end_turn', 'max_tokens', 'tool_use', 'stop_sequence', 'refusal') as fc.Arbitrary<NonNullable<MessagesResponse['stop_reason']>>,
  usage: fc.record({ input_tokens: fc.nat(5000), output_tokens: fc.nat(5000), cache_creation_input_tokens: fc.nat(3000), cache_read_input_tokens: fc.nat(3000) }),
});

type MessagesReply = typeof messagesReply extends fc.Arbitrary<infer T> ? T : never;

function messagesStream(reply: MessagesReply): { events: SseEvent[]; response: MessagesResponse } {
  const ev = (payload: Record<string, unknown>): SseEvent => ({ event: String(payload.type), data: JSON.stringify(payload) });
  const content: MessagesResponse['content'] = [];
  const { output_tokens: outputTokens, ...inputUsage } = reply.usage;
  const events = [ev({ type: 'message_start', message: { id: 'msg_p', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { ...inputUsage, output_tokens: 1 } } })];
  reply.blocks.forEach((block, index) => {
    if (block.kind === 'text') {
      content.push({ type: 'text', text: block.text });
      events.push(ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const piece of cut(block.text, block.points)) events.push(ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
    } else if (block.kind === 'thinking') {
      content.push({ type: 'thinking', thinking: block.text, signature: block.signature });
      events.push(ev({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const piece of cut(block.text, block.points)) events.push(ev({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }));
      events.push(ev({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }));
    } else {
      content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
      events.push(ev({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      for (const piece of cut(JSON.stringify(block.input), block.points)) {
        events.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
    }
    events.push(ev({ type: 'content_block_stop', index }));
  });
  events.push(ev({ type: 'message_delta', delta: { stop_reason: reply.stop, stop_sequence: null }, usage: { output_tokens: outputTokens } }));
  events.push(ev({ type: 'message_stop' }));
  const response: MessagesResponse = { id: 'msg_p', type: 'message', role: 'assistant', model: 'm', content, stop_reason: reply.stop, stop_sequence: null, usage: reply.usage };
  return { events, response };
}

const chatReply = fc.record({
  reasoning: fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 40 }), points), { nil: undefined }),
  text: fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 40 }), points), { nil: undefined }),
  calls: fc.uniqueArray(fc.record({ id: name.map((n) => `call_${n}`), name, input, points }), { maxLength: 3, selector: (c) => c.id }),
  finish: fc.constantFrom('stop', 'length', 'tool_calls', 'content_filter') as fc.Arbitrary<ChatCompletion['choices'][number]['finish_reason']>,
  usage: fc.record({ prompt: fc.nat(5000), completion: fc.nat(5000), cached: fc.nat(5000) }),
});

type ChatReply = typeof chatReply extends fc.Arbitrary<infer T> ? T : never;

function chatStream(reply: ChatReply): { events: SseEvent[]; completion: ChatCompletion } {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
    data: JSON.stringify({ id: 'chatcmpl-p', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
  });
  const prompt = reply.usage.prompt + reply.usage.cached;
  const usage = { prompt_tokens: prompt, completion_tokens: reply.usage.completion, total_tokens: prompt + reply.usage.completion, prompt_tokens_details: { cached_tokens: reply.usage.cached } };
  const events = [chunk({ role: 'assistant', content: '' })];
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: reply.text?.[0] ?? null, refusal: null };
  if (reply.reasoning) {
    message.reasoning_content = reply.reasoning[0];
    for (const piece of cut(reply.reasoning[0], reply.reasoning[1])) events.push(chunk({ reasoning_content: piece }));
  }
  if (reply.text) for (const piece of cut(reply.text[0], reply.text[1])) events.push(chunk({ content: piece }));
  if (reply.calls.length > 0) {
    message.tool_calls = reply.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }));
  }
  reply.calls.forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of cut(JSON.stringify(call.input), call.points)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, reply.finish));
  events.push({ data: JSON.stringify({ id: 'chatcmpl-p', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [], usage }) });
  events.push({ data: '[DONE]' });
  const completion: ChatCompletion = { id: 'chatcmpl-p', object: 'chat.completion', created: 1, model: 'up', choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finish }], usage };
  return { events, completion };
}

describe('stream fold = non-stream translation', () => {
  it('messages → chat', () => {
    fc.assert(
      fc.property(messagesReply, (reply) => {
        const { events, response } = messagesStream(reply);
        const encoded = runTransform(createMessagesToChatStream({ model: 'vendora-x', id: 'c', created: 7, includeUsage: true }), events, 'messages');
        const decoded = decodeEvents(encoded);
        expect(decoded.at(-1)?.data).toBe('[DONE]');
        const chunks = decoded.slice(0, -1).map((event) => chatCompletionChunkSchema.parse(event.data));
        const expected = messagesToChatResponse(response, { model: 'vendora-x', id: 'c', created: 7 });
        expect(normalizeArguments(accumulateChatChunks(chunks))).toEqual(normalizeArguments(expected));
      }),
      { numRuns: 300 },
    );
  });

  it('chat → messages', () => {
    fc.assert(
      fc.property(chatReply, (reply) => {
        const { events, completion } = chatStream(reply);
        const encoded = runTransform(createChatToMessagesStream({ model: 'vendora-x', id: 'msg_c' }), events, 'chat');
        const streamed = decodeEvents(encoded).map((event) => {
          const parsed = messagesStreamEventSchema.parse(event.data);
          expect(event.event).toBe(parsed.type);
          return parsed as unknown as Record<string, unknown>;
        });
        const expected = chatToMessagesResponse(completion, { model: 'vendora-x', id: 'msg_c' });
        expect(accumulateMessagesEvents(streamed)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
