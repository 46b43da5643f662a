/**
 * Thinking in a chat stream translated to messages events: each signed
 * block is a block of its own, ending with its one `signature_delta` then
 * `content_block_stop` (PROTOCOLS A.6); a redacted block is a start and a
 * stop with no delta; a signed block with no text is still a block. The
 * folded stream says what the JSON translation of the same answer says.
 */
import { describe, expect, it } from 'vitest';
import { type ChatCompletion, messagesStreamEventSchema } from '../../../src/schemas/index.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { checkMessagesBlockGrammar } from './support/messages-block-grammar.js';
import { accumulateMessagesEvents, decodeEvents, runTransform } from './support/stream-harness.js';

type Json = Record<string, unknown>;

const chunk = (delta: Json, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-t', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
});
const DONE: SseEvent = { data: '[DONE]' };

function translate(events: readonly SseEvent[]): Json[] {
  const encoded = runTransform(createChatToMessagesStream({ model: 'vendora-x', id: 'msg_t' }), events, 'chat');
  return decodeEvents(encoded).map((event) => {
    const parsed = messagesStreamEventSchema.parse(event.data) as unknown as Json;
    expect(event.event).toBe(parsed.type);
    return parsed;
  });
}

function jsonTranslation(message: Partial<ChatCompletion['choices'][number]['message']>): ChatCompletion {
  return {
    id: 'chatcmpl-t',
    object: 'chat.completion',
    created: 1,
    model: 'up',
    choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, ...message }, logprobs: null, finish_reason: 'stop' }],
  };
}

/** `type index [delta type]` per event, e.g. `delta 0 signature_delta`. */
const outline = (events: readonly Json[]): string[] =>
  events.map((event) => {
    const type = String(event.type).replace(/^content_block_/, '');
    const index = event.index === undefined ? '' : ` ${String(event.index)}`;
    const delta = event.type === 'content_block_delta' ? ` ${String((event.delta as Json).type)}` : '';
    const block = event.type === 'content_block_start' ? ` ${String((event.content_block as Json).type)}` : '';
    return `${type}${index}${block}${delta}`;
  });

describe('createChatToMessagesStream: thinking blocks', () => {
  it('two signed thinking blocks stay two blocks, each closed right after its own signature', () => {
    const first = { type: 'thinking', thinking: 'First.', signature: 'S1' };
    const second = { type: 'thinking', thinking: 'Second.', signature: 'S2' };
    const events = translate([
      chunk({ role: 'assistant', reasoning_content: '' }),
      chunk({ reasoning_content: 'Fir' }),
      chunk({ reasoning_content: 'st.' }),
      chunk({ thinking_blocks: [first] }),
      chunk({ reasoning_content: 'Second.' }),
      chunk({ thinking_blocks: [second] }),
      chunk({ content: 'Done.' }),
      chunk({}, 'stop'),
      DONE,
    ]);
    checkMessagesBlockGrammar(events);
    expect(outline(events)).toEqual([
      'message_start',
      'start 0 thinking', 'delta 0 thinking_delta', 'delta 0 thinking_delta', 'delta 0 signature_delta', 'stop 0',
      'start 1 thinking', 'delta 1 thinking_delta', 'delta 1 signature_delta', 'stop 1',
      'start 2 text', 'delta 2 text_delta', 'stop 2',
      'message_delta', 'message_stop',
    ]);
    const expected = chatToMessagesResponse(jsonTranslation({ content: 'Done.', reasoning_content: 'First.Second.', thinking_blocks: [first, second] }), { model: 'vendora-x', id: 'msg_t' });
    expect(expected.content).toEqual([first, second, { type: 'text', text: 'Done.' }]);
    expect(accumulateMessagesEvents(events).content).toEqual(expected.content);
  });

  it('redacted thinking and a signed block without text are blocks of their own', () => {
    const signed = { type: 'thinking', thinking: 'Plan.', signature: 'S1' };
    const redacted = { type: 'redacted_thinking', data: 'ENCRYPTED' };
    const empty = { type: 'thinking', thinking: '', signature: 'S2' };
    const events = translate([
      chunk({ role: 'assistant', reasoning_content: '' }),
      chunk({ reasoning_content: 'Plan.' }),
      chunk({ thinking_blocks: [signed] }),
      chunk({ thinking_blocks: [redacted] }),
      chunk({ reasoning_content: '' }),
      chunk({ thinking_blocks: [empty] }),
      chunk({ content: 'Answer.' }),
      chunk({}, 'stop'),
      DONE,
    ]);
    checkMessagesBlockGrammar(events);
    expect(outline(events)).toEqual([
      'message_start',
      'start 0 thinking', 'delta 0 thinking_delta', 'delta 0 signature_delta', 'stop 0',
      'start 1 redacted_thinking', 'stop 1',
      'start 2 thinking', 'delta 2 signature_delta', 'stop 2',
      'start 3 text', 'delta 3 text_delta', 'stop 3',
      'message_delta', 'message_stop',
    ]);
    expect(events.find((event) => event.type === 'content_block_start' && event.index === 1)).toMatchObject({ content_block: { type: 'redacted_thinking', data: 'ENCRYPTED' } });
    const expected = chatToMessagesResponse(jsonTranslation({ content: 'Answer.', reasoning_content: 'Plan.', thinking_blocks: [signed, redacted, empty] }), { model: 'vendora-x', id: 'msg_t' });
    expect(expected.content).toEqual([signed, redacted, empty, { type: 'text', text: 'Answer.' }]);
    expect(accumulateMessagesEvents(events).content).toEqual(expected.content);
  });

  it('blocks that arrive whole, with no reasoning text before them, are sent in their order', () => {
    const blocks = [
      { type: 'redacted_thinking', data: 'R1' },
      { type: 'thinking', thinking: 'Whole.', signature: 'S1' },
      { type: 'thinking', thinking: '', signature: 'S2' },
    ];
    const events = translate([chunk({ role: 'assistant', content: '' }), chunk({ thinking_blocks: blocks }), chunk({ content: 'Hi' }), chunk({}, 'stop'), DONE]);
    checkMessagesBlockGrammar(events);
    const expected = chatToMessagesResponse(jsonTranslation({ content: 'Hi', thinking_blocks: blocks }), { model: 'vendora-x' });
    expect(accumulateMessagesEvents(events).content).toEqual(expected.content);
    expect(expected.content.map((block) => block.type)).toEqual(['redacted_thinking', 'thinking', 'thinking', 'text']);
  });

  it('thinking fragments echoed in thinking_blocks and a signature sent alone make one signed block per thinking segment', () => {
    // Fragment-style upstreams repeat each reasoning piece as an unsigned entry, then send the signature in an entry of its own.
    const events = translate([
      chunk({ reasoning_content: 'One ', thinking_blocks: [{ type: 'thinking', thinking: 'One ' }] }),
      chunk({ reasoning_content: 'two.', thinking_blocks: [{ type: 'thinking', thinking: 'two.' }] }),
      chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'S1' }] }),
      chunk({ reasoning_content: 'Three.', thinking_blocks: [{ type: 'thinking', thinking: 'Three.' }] }),
      chunk({ thinking_blocks: [{ type: 'thinking', signature: 'S2' }] }),
      chunk({ content: 'Ok' }),
      chunk({}, 'stop'),
      DONE,
    ]);
    checkMessagesBlockGrammar(events);
    expect(accumulateMessagesEvents(events).content).toEqual([
      { type: 'thinking', thinking: 'One two.', signature: 'S1' },
      { type: 'thinking', thinking: 'Three.', signature: 'S2' },
      { type: 'text', text: 'Ok' },
    ]);
  });

  it('a signed block whose text was partly streamed sends the rest before its signature', () => {
    const block = { type: 'thinking', thinking: 'Partly streamed.', signature: 'S1' };
    const events = translate([chunk({ reasoning_content: 'Partly ' }), chunk({ thinking_blocks: [block] }), chunk({}, 'stop'), DONE]);
    checkMessagesBlockGrammar(events);
    expect(accumulateMessagesEvents(events).content).toEqual([block]);
  });

  it('a signature never lands on reasoning text it does not sign', () => {
    const block = { type: 'thinking', thinking: 'Other text.', signature: 'S1' };
    const events = translate([chunk({ reasoning_content: 'Streamed.' }), chunk({ thinking_blocks: [block] }), chunk({}, 'stop'), DONE]);
    checkMessagesBlockGrammar(events);
    expect(accumulateMessagesEvents(events).content).toEqual([{ type: 'thinking', thinking: 'Streamed.', signature: '' }, block]);
  });
});
