import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTextTokens } from '../../../../src/tokens/count-tokens.js';
import { splitByTokens, truncateToTokens } from '../../../../src/tokens/split-by-tokens.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('splitByTokens', () => {
  it('splits into pieces that join back to the text, multibyte characters whole', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.integer({ min: 1, max: 5 }), (text, size) => {
        const pieces = splitByTokens(text, size);
        expect(pieces.map((piece) => piece.text).join('')).toBe(text);
        // No character cut in two: no lone surrogate, and no replacement character the text did not have
        // (the generator may produce U+FFFD itself).
        const replacements = (value: string) => value.split('\uFFFD').length - 1;
        for (const piece of pieces) expect(piece.text).not.toMatch(LONE_SURROGATE);
        expect(pieces.reduce((sum, piece) => sum + replacements(piece.text), 0)).toBe(replacements(text));
      }),
    );
  });

  it('accounts every token of the text', () => {
    const text = 'The quick brown fox jumps over the lazy dog. 😀 Ünïcödé.';
    const pieces = splitByTokens(text, 3);
    expect(pieces.reduce((sum, piece) => sum + piece.tokens, 0)).toBe(countTextTokens(text));
    expect(pieces.length).toBeGreaterThan(3);
  });
});

describe('truncateToTokens', () => {
  it('keeps text within the budget and reports its exact count', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 0, max: 20 }), (text, max) => {
        const cut = truncateToTokens(text, max);
        expect(cut.tokens).toBeLessThanOrEqual(max);
        expect(cut.tokens).toBe(countTextTokens(cut.text));
        expect(text.startsWith(cut.text)).toBe(true);
        expect(cut.truncated).toBe(countTextTokens(text) > max);
      }),
    );
  });
});
