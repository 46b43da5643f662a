/**
 * Property: for generated chat answers (several choices, reasoning in
 * several signed segments, redacted thinking, signed blocks without text),
 * streamed the ways chat upstreams send thinking, translating the stream
 * gives what translating the JSON answer gives:
 *
 * - `per-block`: each block's text as `reasoning_content`, then the signed
 *   block whole in `thinking_blocks` (what a messages upstream translated
 *   to chat sends);
 * - `fragments`: each piece both as `reasoning_content` and as an unsigned
 *   `thinking_blocks` entry, then the signature alone;
 * - `whole`: every block in one `thinking_blocks` delta, no reasoning text.
 *
 * The chunks of the other choices are interleaved with choice 0's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChatCompletion, messagesStreamEventSchema } from '../../../src/schemas/index.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { chatToResponsesResponse } from '../../../src/translate/chat-to-responses-response.js';
import { createChatToResponsesStream } from '../../../src/translate/chat-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { chatAnswer } from '../cache/support/answer-arbitraries.js';
import { checkMessagesBlockGrammar } from './support/messages-block-grammar.js';
import { accumulateMessagesEvents, decodeEvents, runTransform } from './support/stream-harness.js';

type Json = Record<string, unknown>;
type Shape = 'per-block' | 'fragments' | 'whole';

/** `text` cut at the given fractions; no piece is empty. */
function cut(text: string, points: readonly number[]): string[] {
  const at = [...new Set(points.map((p) => Math.floor(p * text.length)))].filter((i) => i > 0 && i < text.length).sort((a, b) => a - b);
  return [0, ...at].map((from, k) => text.slice(from, [...at, text.length][k]));
}

/** The deltas of one choice's message, thinking sent in `shape`. */
function messageDeltas(message: Json, shape: Shape, points: readonly number[]): Json[] {
  const deltas: Json[] = [{ role: 'assistant', content: '' }];
  const blocks = Array.isArray(message.thinking_blocks) ? (message.thinking_blocks as Json[]) : [];
  if (blocks.length > 0 && shape === 'whole') deltas.push({ thinking_blocks: blocks });
  else if (blocks.length > 0) {
    for (const block of blocks) {
      if (block.type !== 'thinking') {
        deltas.push({ thinking_blocks: [block] });
        continue;
      }
      const text = String(block.thinking);
      const pieces = text === '' ? [] : cut(text, points);
      if (shape === 'per-block') {
        deltas.push(...pieces.map((piece) => ({ reasoning_content: piece })), { thinking_blocks: [block] });
      } else {
        deltas.push(...pieces.map((piece) => ({ reasoning_content: piece, thinking_blocks: [{ type: 'thinking', thinking: piece }] })));
        deltas.push({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: block.signature }] });
      }
    }
  } else if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') {
    deltas.push(...cut(message.reasoning_content, points).map((piece) => ({ reasoning_content: piece })));
  }
  if (typeof message.content === 'string' && message.content !== '') deltas.push(...cut(message.content, points).map((piece) => ({ content: piece })));
  if (typeof message.refusal === 'string' && message.refusal !== '') deltas.push({ refusal: message.refusal });
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
  calls.forEach((call, index) => {
    const fn = call.function as Json;
    const [head = '', ...rest] = cut(String(fn.arguments), points);
    deltas.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: fn.name, arguments: head } }] });
    for (const piece of rest) deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  return deltas;
}

/** The stream of a whole answer: the choices' chunks interleaved, then the usage chunk and `[DONE]`. */
function answerStream(answer: Json, shape: Shape, points: readonly number[]): SseEvent[] {
  const envelope = { id: String(answer.id), object: 'chat.completion.chunk', created: 1, model: 'up' };
  const perChoice = (answer.choices as Json[]).map((choice) => {
    const events = messageDeltas(choice.message as Json, shape, points).map((delta) => ({ index: choice.index, delta, logprobs: null, finish_reason: null }));
    events.push({ index: choice.index, delta: {}, logprobs: null, finish_reason: choice.finish_reason as null });
    return events;
  });
  const events: SseEvent[] = [];
  for (let at = 0; perChoice.some((list) => at < list.length); at++) {
    for (const list of perChoice) {
      const choice = list[at];
      if (choice) events.push({ data: JSON.stringify({ ...envelope, choices: [choice] }) });
    }
  }
  if (answer.usage) events.push({ data: JSON.stringify({ ...envelope, choices: [], usage: answer.usage }) });
  events.push({ data: '[DONE]' });
  return events;
}

const shape = fc.constantFrom<Shape>('per-block', 'fragments', 'whole');
const points = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 });

describe('chat thinking streamed = chat thinking answered whole', () => {
  it('chat → messages: the same blocks, each thinking block signed by its own signature', () => {
    fc.assert(
      fc.property(chatAnswer, shape, points, (answer, how, at) => {
        const encoded = runTransform(createChatToMessagesStream({ model: 'vendora-x', id: 'msg_p' }), answerStream(answer, how, at), 'chat');
        const events = decodeEvents(encoded).map((event) => messagesStreamEventSchema.parse(event.data) as unknown as Json);
        checkMessagesBlockGrammar(events);
        const expected = chatToMessagesResponse(answer as unknown as ChatCompletion, { model: 'vendora-x', id: 'msg_p' });
        expect(accumulateMessagesEvents(events)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('chat → Responses: the same output items, from choice 0', () => {
    const options = (): ResponseAnswerOptions => ({
      id: 'resp_0123456789abcdef0123456789abcdef',
      createdAt: 1,
      model: 'client-model',
      request: {},
      customTools: new Set(),
      includeEncrypted: true,
      seal: (blocks) => `sealed:${JSON.stringify(blocks)}`,
      now: () => 2,
    });
    // Item ids are random; a stream may cut a message in two where a call came between (none does here).
    const says = (output: readonly unknown[]) => output.map((item) => ({ ...(item as Json), id: undefined }));
    fc.assert(
      fc.property(chatAnswer, shape, points, (answer, how, at) => {
        const transform = createChatToResponsesStream(options());
        checkResponsesStream(runTransform(transform, answerStream(answer, how, at), 'chat'));
        const expected = chatToResponsesResponse(answer as unknown as ChatCompletion, options());
        expect(transform.final?.status).toBe(expected.status);
        expect(says(transform.final?.output ?? [])).toEqual(says(expected.output));
      }),
      { numRuns: 300 },
    );
  });
});
