/**
 * The `guards` option is checked when the gateway is built, with messages
 * that say what to fix.
 */
import { describe, expect, it } from 'vitest';
import { denyList } from '../../../src/guards/builtin/deny-list.js';
import { piiRedactor } from '../../../src/guards/builtin/pii-redactor.js';
import { guardsSchema } from '../../../src/guards/guard-schema.js';

const allow = () => ({ action: 'allow' as const });
const messages = (value: unknown) => {
  const result = guardsSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('guardsSchema', () => {
  it('accepts the reference guards and a full guard', () => {
    expect(messages([piiRedactor(), denyList({ terms: ['x'] })])).toEqual([]);
    expect(
      messages([{ name: 'g', input: allow, output: allow, outputChannels: ['text', 'reasoning'], timeoutMs: 500, onError: 'open', holdback: 'sentence' }]),
    ).toEqual([]);
  });

  it.each([
    [[{ name: 'g' }], /neither `input` nor `output`/],
    [[{ input: allow }], /name: must be a non-empty string naming the guard/],
    [[{ name: '', input: allow }], /name: must be a non-empty string/],
    [[{ name: 'g', input: 'no' }], /must be a function/],
    [[{ name: 'g', input: allow, timeoutMs: 0 }], /integer from 1/],
    [[{ name: 'g', input: allow, onError: 'ignore' }], /"open" or "closed"/],
    [[{ name: 'g', output: allow, holdback: 64 }], /`\{ chars: number \}`.*"sentence"/],
    [[{ name: 'g', output: allow, holdback: { char: 64 } }], /char/],
    [[{ name: 'g', output: allow, outputChannels: ['tools'] }], /"text" or "tool_arguments" or "reasoning"/],
    [[{ name: 'g', input: allow, timeout: 5 }], /timeout/],
    [[{ name: 'g', input: allow }, { name: 'g', output: allow }], /repeats the guard name "g"/],
  ])('%j is refused', (value, message) => {
    expect(messages(value).join('\n')).toMatch(message);
  });
});
