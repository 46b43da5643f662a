/**
 * Signed thinking from upstreams that stream it in fragments: each piece
 * as `reasoning_content` (and echoed as an unsigned `thinking_blocks`
 * entry), then the signature alone. The sealed block is what the next turn
 * sends back, so it must hold the text the signature signs.
 */
import { describe, expect, it } from 'vitest';
import { createChatToResponsesStream } from '../../../src/translate/chat-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { runTransform } from './support/stream-harness.js';

const ID = 'resp_0123456789abcdef0123456789abcdef';

const options = (): ResponseAnswerOptions => ({
  id: ID,
  createdAt: 1,
  model: 'client-model',
  request: {},
  customTools: new Set(),
  includeEncrypted: true,
  seal: (blocks) => `sealed:${JSON.stringify(blocks)}`,
  now: () => 2,
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-f', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
});

function run(events: SseEvent[]) {
  const transform = createChatToResponsesStream(options());
  const summary = checkResponsesStream(runTransform(transform, [...events, { data: '[DONE]' }], 'chat'), ID);
  return { summary, stored: transform.final };
}

describe('createChatToResponsesStream: signed thinking in fragments', () => {
  it('a signature sent alone seals the text streamed before it', () => {
    const { stored } = run([
      chunk({ reasoning_content: 'One ', thinking_blocks: [{ type: 'thinking', thinking: 'One ' }] }),
      chunk({ reasoning_content: 'two.', thinking_blocks: [{ type: 'thinking', thinking: 'two.' }] }),
      chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'S1' }] }),
      chunk({ content: 'Ok' }, 'stop'),
    ]);
    expect(stored?.output[0]).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'One two.' }],
      encrypted_content: `sealed:${JSON.stringify([{ type: 'thinking', thinking: 'One two.', signature: 'S1' }])}`,
    });
  });

  it('a signed block that continues the streamed text shows the rest of it', () => {
    const block = { type: 'thinking', thinking: 'Partly streamed.', signature: 'S1' };
    const { summary, stored } = run([chunk({ reasoning_content: 'Partly ' }), chunk({ thinking_blocks: [block] }), chunk({}, 'stop')]);
    expect(stored?.output[0]).toMatchObject({ summary: [{ type: 'summary_text', text: 'Partly streamed.' }], encrypted_content: `sealed:${JSON.stringify([block])}` });
    const deltas = summary.events.filter((event) => event.type === 'response.reasoning_summary_text.delta').map((event) => event.delta);
    expect(deltas.join('')).toBe('Partly streamed.');
  });
});
