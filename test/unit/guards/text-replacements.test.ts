/**
 * Replacements are checked before anything is written: an invalid list is
 * a guard error and leaves no half-rewritten body; valid ones cost time
 * linear in the body.
 */
import { describe, expect, it } from 'vitest';
import { applyChatReplacements, viewOfChat } from '../../../src/guards/chat-input-view.js';
import { checkSpans, spliceText } from '../../../src/guards/check-spans.js';
import { GuardDecisionError } from '../../../src/guards/guard-decision-error.js';
import { MAX_REPLACEMENT_CHARS, MAX_REPLACEMENTS } from '../../../src/guards/guard-defaults.js';
import { applyTextReplacements } from '../../../src/guards/text-locations.js';
import { type ChatCompletionRequest, chatCompletionRequestSchema } from '../../../src/schemas/chat-request.js';
import { elapsedMs } from '../../helpers/elapsed-ms.js';

const body: ChatCompletionRequest = chatCompletionRequestSchema.parse({
  model: 'm',
  messages: [
    { role: 'user', content: 'hello world' },
    { role: 'user', content: 'second 😀 turn' },
  ],
});
const part = 'messages.0.content';

describe('invalid replacements', () => {
  it.each([
    ['a negative start', { start: -1, end: 2 }, /outside/],
    ['an end past the text', { start: 0, end: 12 }, /outside/],
    ['an end before the start', { start: 5, end: 4 }, /outside/],
    ['a fractional offset', { start: 1.5, end: 3 }, /outside/],
    ['a string offset', { start: '1' as unknown as number, end: 3 }, /outside/],
  ])('%s is refused', (_, span, message) => {
    expect(() => applyChatReplacements(body, [{ part, text: 'x', ...span }])).toThrow(message);
  });

  it('refuses overlapping spans and two spans starting at one offset', () => {
    expect(() =>
      applyChatReplacements(body, [
        { part, start: 0, end: 5, text: 'a' },
        { part, start: 4, end: 8, text: 'b' },
      ]),
    ).toThrow(/overlap/);
    expect(() =>
      applyChatReplacements(body, [
        { part, start: 3, end: 3, text: 'a' },
        { part, start: 3, end: 3, text: 'b' },
      ]),
    ).toThrow(/overlap/);
  });

  it('allows adjacent spans', () => {
    const next = applyChatReplacements(body, [
      { part, start: 0, end: 5, text: 'HELLO' },
      { part, start: 5, end: 6, text: '_' },
    ]);
    expect(next.messages[0]!.content).toBe('HELLO_world');
  });

  it('refuses a span that cuts a surrogate pair in two', () => {
    const emoji = 'second 😀 turn'.indexOf('😀');
    expect(() => applyChatReplacements(body, [{ part: 'messages.1.content', start: emoji + 1, end: emoji + 2, text: '' }])).toThrow(
      /cuts a character/,
    );
    const whole = applyChatReplacements(body, [{ part: 'messages.1.content', start: emoji, end: emoji + 2, text: ':)' }]);
    expect(whole.messages[1]!.content).toBe('second :) turn');
  });

  it('refuses a replacement without string text', () => {
    expect(() => applyChatReplacements(body, [{ part, start: 0, end: 1, text: 5 as unknown as string }])).toThrow(/string `text`/);
  });

  it('refuses more replacements, or more replacement text, than the bounds', () => {
    const many = Array.from({ length: MAX_REPLACEMENTS + 1 }, () => ({ part, start: 0, end: 0, text: '' }));
    expect(() => applyChatReplacements(body, many)).toThrow(/at most/);
    const huge = [{ part, start: 0, end: 0, text: 'x'.repeat(MAX_REPLACEMENT_CHARS + 1) }];
    expect(() => applyChatReplacements(body, huge)).toThrow(/at most/);
  });

  it('writes nothing when one part of several is invalid', () => {
    const before = structuredClone(body);
    const { locations } = viewOfChat(body);
    expect(() =>
      applyTextReplacements(body, locations, [
        { part, start: 0, end: 5, text: 'HELLO' },
        { part: 'messages.1.content', start: 0, end: 99, text: 'x' },
      ]),
    ).toThrow(GuardDecisionError);
    expect(body).toEqual(before);
  });
});

describe('checkSpans and spliceText', () => {
  it('sort spans and apply them within a range', () => {
    const spans = checkSpans(
      [
        { start: 6, end: 11, text: 'there' },
        { start: 0, end: 5, text: 'hi' },
      ],
      'hello world',
      'text',
    );
    expect(spans.map((span) => span.start)).toEqual([0, 6]);
    expect(spliceText('hello world', spans)).toBe('hi there');
    expect(spliceText('hello world', spans, 5, 11)).toBe(' there');
  });
});

describe('cost', () => {
  it('grows linearly with the body and the replacements', () => {
    const bodyOf = (n: number) =>
      chatCompletionRequestSchema.parse({
        model: 'm',
        messages: Array.from({ length: n }, (_, i) => ({ role: 'user', content: `message ${i} with a@b.io inside` })),
      });
    const run = (n: number) => {
      const large = bodyOf(n);
      const { view, locations } = viewOfChat(large);
      const replacements = view.messages.map((m) => ({ part: m.parts[0]!.id, start: 0, end: 7, text: 'MESSAGE' }));
      return Math.min(...[0, 1, 2].map(() => elapsedMs(() => applyTextReplacements(large, locations, replacements))));
    };
    run(1_000); // warm up
    const small = run(1_000);
    const large = run(MAX_REPLACEMENTS);
    // Ten times the body: linear work takes about ten times as long; quadratic work a hundred times.
    expect(large).toBeLessThan(Math.max(small, 5) * 30);
  });
});
