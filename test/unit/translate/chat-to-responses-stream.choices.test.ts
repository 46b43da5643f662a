/**
 * A chat answer with several choices (`n > 1`, or an upstream that fans
 * out) has one Response: the Responses interface has a single output, and
 * the JSON translation keeps the first choice. The stream keeps choice 0
 * too, whatever order the choices' chunks come in.
 */
import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../../src/schemas/index.js';
import { chatToResponsesResponse } from '../../../src/translate/chat-to-responses-response.js';
import { createChatToResponsesStream } from '../../../src/translate/chat-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { runTransform } from './support/stream-harness.js';

type Json = Record<string, unknown>;

const ID = 'resp_0123456789abcdef0123456789abcdef';

const options = (): ResponseAnswerOptions => ({
  id: ID,
  createdAt: 1_700_000_000,
  model: 'client-model',
  request: {},
  customTools: new Set(),
  includeEncrypted: true,
  seal: (blocks) => `sealed:${JSON.stringify(blocks)}`,
  now: () => 1_700_000_009,
});

const chunk = (index: number, delta: Json, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-n', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index, delta, logprobs: null, finish_reason: finish }] }),
});

const completion: ChatCompletion = {
  id: 'chatcmpl-n',
  object: 'chat.completion',
  created: 1,
  model: 'up',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'Zero.', refusal: null, reasoning_content: 'Think zero.' }, logprobs: null, finish_reason: 'stop' },
    {
      index: 1,
      message: {
        role: 'assistant',
        content: 'One.',
        refusal: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      logprobs: null,
      finish_reason: 'length',
    },
  ],
};

/** What a Response says, item ids aside. */
const says = (output: readonly Json[]) => output.map(({ id: _id, ...item }) => item);

describe('createChatToResponsesStream with several choices', () => {
  it.each([
    ['interleaved, choice 0 first', [0, 1]],
    ['interleaved, choice 1 first', [1, 0]],
  ])('translates choice 0 only, as the JSON translation does (%s)', (_how, order) => {
    const byChoice: Record<number, SseEvent[]> = {
      0: [chunk(0, { role: 'assistant', content: '' }), chunk(0, { reasoning_content: 'Think zero.' }), chunk(0, { content: 'Zero.' }), chunk(0, {}, 'stop')],
      1: [
        chunk(1, { role: 'assistant', content: '' }),
        chunk(1, { content: 'One.' }),
        chunk(1, { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
        chunk(1, {}, 'length'),
      ],
    };
    const events: SseEvent[] = [];
    for (let at = 0; at < 4; at++) for (const choice of order) events.push(byChoice[choice]![at]!);
    events.push({ data: '[DONE]' });
    const summary = checkResponsesStream(runTransform(createChatToResponsesStream(options()), events, 'chat'), ID);
    const expected = chatToResponsesResponse(completion, options());
    expect(expected.status).toBe('completed');
    expect(expected.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(summary.terminal.response.status).toBe(expected.status);
    expect(says(summary.items)).toEqual(says(expected.output as unknown as Json[]));
  });

  it('a chunk that carries only another choice adds nothing', () => {
    const events = [chunk(0, { content: 'Zero.' }), chunk(1, { content: 'One.' }), chunk(0, {}, 'stop'), chunk(1, {}, 'length'), { data: '[DONE]' }];
    const summary = checkResponsesStream(runTransform(createChatToResponsesStream(options()), events, 'chat'), ID);
    expect(summary.items.map((item) => item.content)).toEqual([[{ type: 'output_text', text: 'Zero.', annotations: [], logprobs: [] }]]);
    expect(summary.terminal.response.status).toBe('completed');
  });
});
