/**
 * A thinking block is held whole until its signature (it becomes one chat
 * `thinking_blocks` entry): past `MAX_HELD_OUTPUT_CHARS` the translator
 * refuses it, which the relay turns into the stream's error event.
 */
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { MAX_HELD_OUTPUT_CHARS } from '../../../src/translate/held-output.js';
import { createMessagesToChatStream } from '../../../src/translate/messages-to-chat-stream.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';

const event = (name: string, data: Record<string, unknown>): SseEvent => ({ event: name, data: JSON.stringify({ type: name, ...data }) });
const thinking = (text: string): SseEvent => event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: text } });

function opened() {
  const transform = createMessagesToChatStream({ model: 'm', id: 'chatcmpl-1', created: 1, includeUsage: false });
  transform.push(event('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }));
  transform.push(event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }));
  return transform;
}

describe('messages → chat: the thinking held for its signature', () => {
  it('up to 32 Mi characters are held and sent whole with the signature', () => {
    const transform = opened();
    const piece = 'c'.repeat(MAX_HELD_OUTPUT_CHARS / 8);
    for (let i = 0; i < 8; i++) transform.push(thinking(piece));
    const out = [...transform.push(event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'sig' } }))].join('');
    expect(out.includes('"thinking_blocks"')).toBe(true);
    expect(out.length).toBeGreaterThan(MAX_HELD_OUTPUT_CHARS);
  });

  it('the delta that would pass 32 Mi characters is refused with a 502 naming the bound', () => {
    const transform = opened();
    const piece = 'c'.repeat(MAX_HELD_OUTPUT_CHARS / 8);
    for (let i = 0; i < 8; i++) transform.push(thinking(piece));
    let thrown: unknown;
    try {
      transform.push(thinking('one more'));
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayError(thrown) && thrown.code).toBe('UPSTREAM_ERROR');
    expect((thrown as Error).message).toBe(`The upstream's answer passed ${MAX_HELD_OUTPUT_CHARS} characters of thinking, the most the gateway holds for one streamed answer; the stream was ended.`);
  });
});
