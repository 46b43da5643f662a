import { describe, expect, it } from 'vitest';
import { CALLER_TEXT_LIMIT, TRUNCATION_MARKER, truncateCallerText } from '../../../src/truncate-caller-text.js';

describe('truncateCallerText', () => {
  it('keeps text of up to 256 characters as it is', () => {
    expect(CALLER_TEXT_LIMIT).toBe(256);
    const text = 'm'.repeat(256);
    expect(truncateCallerText(text)).toBe(text);
    expect(truncateCallerText('gpt-4o')).toBe('gpt-4o');
  });

  it('cuts longer text to 256 characters and marks the cut', () => {
    const cut = truncateCallerText(`${'a'.repeat(256)}${'b'.repeat(1_000_000)}`);
    expect(cut).toBe(`${'a'.repeat(256)}…`);
    expect(TRUNCATION_MARKER).toBe('…');
  });

  it('never ends in half a surrogate pair', () => {
    const cut = truncateCallerText(`${'a'.repeat(255)}😀${'b'.repeat(10)}`);
    expect(cut).toBe(`${'a'.repeat(255)}…`);
    expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
  });
});
