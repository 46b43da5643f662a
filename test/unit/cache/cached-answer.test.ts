/**
 * Stored entries: what `serializeAnswer` writes `parseCachedAnswer` reads
 * back; anything else (another version, a foreign value, damage) is a
 * miss, never an exception.
 */
import { describe, expect, it } from 'vitest';
import type { CachedAnswer } from '../../../src/cache/cache-types.js';
import { parseCachedAnswer, serializeAnswer } from '../../../src/cache/cached-answer.js';

const chatAnswer: CachedAnswer = {
  v: 1,
  createdAt: 1_700_000_000_123,
  format: 'chat',
  upstream: 'openai',
  body: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi 🌍' }, finish_reason: 'stop' }] },
};

const messagesAnswer: CachedAnswer = {
  v: 1,
  createdAt: 5,
  format: 'messages',
  upstream: 'vendor',
  body: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
};

describe('serializeAnswer / parseCachedAnswer', () => {
  it.each([
    ['chat', chatAnswer],
    ['messages', messagesAnswer],
  ])('a %s entry reads back as written', (_name, answer) => {
    const text = serializeAnswer(answer);
    expect(typeof text).toBe('string');
    expect(parseCachedAnswer(text)).toEqual(answer);
  });

  it('keeps only the entry fields (nothing extra a foreign writer added)', () => {
    const text = JSON.stringify({ ...chatAnswer, extra: 'x' });
    expect(parseCachedAnswer(text)).toEqual(chatAnswer);
  });

  const entry = (changes: Record<string, unknown>): string => JSON.stringify({ ...chatAnswer, ...changes });

  it.each([
    ['not JSON', '{"v":1,'],
    ['empty', ''],
    ['JSON null', 'null'],
    ['a list', '[]'],
    ['a string', '"entry"'],
    ['another version', entry({ v: 2 })],
    ['no version', JSON.stringify({ ...chatAnswer, v: undefined })],
    ['the version as a string', entry({ v: '1' })],
    ['an unknown format', entry({ format: 'responses' })],
    ['no creation time', entry({ createdAt: undefined })],
    ['a creation time that is not a number', entry({ createdAt: '2024-01-01' })],
    ['a negative creation time', entry({ createdAt: -1 })],
    ['no upstream name', entry({ upstream: 7 })],
    ['no body', entry({ body: null })],
    ['a body that is a list', entry({ body: [] })],
    ['a chat body without choices', entry({ body: { id: 'x' } })],
    ['a chat body with no choice', entry({ body: { choices: [] } })],
    ['a chat choice without a message', entry({ body: { choices: [{ index: 0 }] } })],
    ['a messages body in a chat entry', entry({ body: messagesAnswer.body })],
    ['a chat body in a messages entry', entry({ format: 'messages' })],
    ['a messages body without content', JSON.stringify({ ...messagesAnswer, body: { type: 'message' } })],
    ['a messages block without a type', JSON.stringify({ ...messagesAnswer, body: { ...messagesAnswer.body, content: [{ text: 'x' }] } })],
  ])('%s: undefined', (_name, text) => {
    expect(parseCachedAnswer(text)).toBeUndefined();
  });
});
