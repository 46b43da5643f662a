/**
 * The deny-list: whole terms, any case, refused in requests of every
 * interface and in answers; the terms are not revealed.
 */
import { describe, expect, it } from 'vitest';
import { DENY_LIST_REASON, denyList, denyPattern } from '../../../../src/guards/builtin/deny-list.js';
import { runInputGuards, runOutputGuards } from '../../../../src/guards/run-guards.js';
import { chatCompletionRequestSchema } from '../../../../src/schemas/chat-request.js';
import { messagesRequestSchema } from '../../../../src/schemas/messages-request.js';
import { responsesRequestSchema } from '../../../../src/schemas/responses-request.js';
import { elapsedMs } from '../../../helpers/elapsed-ms.js';

describe('denyPattern', () => {
  const pattern = denyPattern(['nightingale', 'project x', 'c++', 'straße']);
  it.each([
    ['The NIGHTINGALE sings', true],
    ['about Project X.', true],
    ['written in C++ today', true],
    ['die Straße', true],
    ['nightingales', false],
    ['xnightingale', false],
    ['project x1', false],
    ['project  x', false],
  ])('%s → %s', (text, expected) => {
    expect(pattern.test(text)).toBe(expected);
  });

  it('refuses an empty list or an empty term', () => {
    expect(() => denyPattern([])).toThrow(/at least one term/);
    expect(() => denyPattern(['ok', ' '])).toThrow(/no empty one/);
  });

  it('scans a hostile megabyte in bounded time', () => {
    const many = denyPattern(Array.from({ length: 200 }, (_, i) => `term${i}word`));
    const text = 'term1wor '.repeat((1 << 20) / 9);
    expect(elapsedMs(() => many.test(text))).toBeLessThan(1_500);
  });
});

describe('the guard', () => {
  const guards = [denyList({ terms: ['nightingale'] })];

  it.each([
    ['chat', chatCompletionRequestSchema.parse({ model: 'm', messages: [{ role: 'user', content: 'tell me about Nightingale' }] })],
    ['messages', messagesRequestSchema.parse({ model: 'm', max_tokens: 5, system: 'nightingale rules', messages: [{ role: 'user', content: 'hi' }] })],
    ['responses', responsesRequestSchema.parse({ model: 'm', input: [{ type: 'function_call_output', call_id: 'c', output: 'the nightingale file' }] })],
  ] as const)('blocks a %s request with the term, without naming it', async (api, body) => {
    const result = await runInputGuards({ guards, api, body, principal: undefined } as Parameters<typeof runInputGuards>[0]);
    expect(result.stop).toEqual({ kind: 'block', guard: 'deny-list', reason: DENY_LIST_REASON });
    expect(DENY_LIST_REASON.toLowerCase()).not.toContain('nightingale');
  });

  it('allows a request without it', async () => {
    const body = chatCompletionRequestSchema.parse({ model: 'm', messages: [{ role: 'user', content: 'nightingales sing' }] });
    expect((await runInputGuards({ guards, api: 'chat', body, principal: undefined })).stop).toBeUndefined();
  });

  it('blocks an answer with the term, with a custom reason', async () => {
    const result = await runOutputGuards({
      guards: [denyList({ terms: ['nightingale'], reason: 'Not here.' })],
      channel: 'text',
      text: 'It is Nightingale.',
      interface: 'chat',
      model: 'm',
      principal: undefined,
    });
    expect(result.stop).toEqual({ kind: 'block', guard: 'deny-list', reason: 'Not here.' });
  });

  it('can leave requests or answers unchecked', () => {
    expect(denyList({ terms: ['a'], input: false }).input).toBeUndefined();
    expect(denyList({ terms: ['a'], outputChannels: [] }).output).toBeUndefined();
  });
});
