/**
 * Byte-pair merging is quadratic in the length of one pre-tokenized word, so
 * the tokenizer must never hand the encoder a long unbroken run (a 60 KB run
 * of one letter once blocked the event loop for 13 s). Checked structurally,
 * by watching what reaches the encoder, not by timing.
 */
import { describe, expect, it, vi } from 'vitest';

const seen: string[] = [];
vi.mock('gpt-tokenizer/encoding/cl100k_base', async (importOriginal) => {
  const actual = await importOriginal<typeof import('gpt-tokenizer/encoding/cl100k_base')>();
  return {
    ...actual,
    encode: (text: string, options?: Parameters<typeof actual.encode>[1]) => {
      seen.push(text);
      return actual.encode(text, options);
    },
    countTokens: (text: string, options?: Parameters<typeof actual.countTokens>[1]) => {
      seen.push(text);
      return actual.countTokens(text, options);
    },
  };
});

const { countTokensExactly, decodeTokens, encodeText } = await import('../../../../src/tokens/tokenizer.js');

const longestRun = (text: string) => Math.max(0, ...(text.match(/\S+/g) ?? []).map((run) => run.length));

describe('tokenizer on long unbroken runs', () => {
  it('never encodes a run of non-whitespace longer than 256 characters', () => {
    seen.length = 0;
    const text = `start ${'x'.repeat(60_000)} middle ${'QUJD'.repeat(10_000)} end`;
    const tokens = encodeText(text);
    expect(seen.length).toBeGreaterThan(1);
    for (const piece of seen) expect(longestRun(piece)).toBeLessThanOrEqual(256);
    expect(decodeTokens(tokens)).toBe(text);
  });

  it('keeps surrogate pairs whole at the cuts', () => {
    const text = '😀'.repeat(1_000);
    expect(decodeTokens(encodeText(text))).toBe(text);
  });

  it('counts ordinary text in one piece, exactly as before', () => {
    seen.length = 0;
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    expect(countTokensExactly(text)).toBeGreaterThan(400);
    expect(seen).toEqual([text]);
  });

  it('counts what it encodes, also with long runs and runs broken only by Unicode spaces', () => {
    const texts = [
      'The quick brown fox jumps over the lazy dog. '.repeat(50),
      `start ${'x'.repeat(3_000)} middle ${'QUJD'.repeat(500)} end`,
      // NBSP and ideographic spaces are whitespace for the cut: one piece, counted as such.
      Array.from({ length: 20 }, () => 'y'.repeat(200)).join('\u00a0'),
      Array.from({ length: 20 }, () => 'z'.repeat(200)).join('\u3000'),
      '😀'.repeat(1_000),
      'a',
    ];
    for (const text of texts) {
      seen.length = 0;
      const counted = countTokensExactly(text);
      const countedPieces = [...seen];
      seen.length = 0;
      expect(counted).toBe(encodeText(text).length);
      expect(countedPieces).toEqual(seen);
    }
  });

  it('grows with the run: a longer run counts more tokens', () => {
    expect(countTokensExactly('x'.repeat(20_000))).toBeGreaterThan(countTokensExactly('x'.repeat(2_000)));
  });
});

const longestWhitespaceRun = (text: string) => Math.max(0, ...(text.match(/\s+/g) ?? []).map((run) => run.length));

describe('tokenizer on long whitespace runs', () => {
  it('never encodes a run of whitespace longer than 256 characters', () => {
    for (const text of [' '.repeat(5_000), `a${'\n'.repeat(5_000)}b`, `x ${' \t\r\n'.repeat(2_000)} y`, '\u00a0\u3000'.repeat(3_000)]) {
      seen.length = 0;
      const tokens = encodeText(text);
      for (const piece of seen) expect(longestWhitespaceRun(piece)).toBeLessThanOrEqual(256);
      expect(seen.join('')).toBe(text);
      expect(decodeTokens(tokens)).toBe(text);
    }
  });
});

describe('isWhitespace', () => {
  it('is the class of `\\s`, for every UTF-16 code unit', async () => {
    const { isWhitespace } = await import('../../../../src/tokens/tokenizer.js');
    const differing: string[] = [];
    for (let code = 0; code <= 0xffff; code++) if (isWhitespace(code) !== /\s/.test(String.fromCharCode(code))) differing.push(code.toString(16));
    expect(differing).toEqual([]);
  });
});
