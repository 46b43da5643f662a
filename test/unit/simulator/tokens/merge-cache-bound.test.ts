/**
 * The encoder's cache of merged words is shared by every request, so the
 * words callers send must not grow it without bound.
 */
import cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { countTokensExactly, MERGE_CACHE_ENTRIES } from '../../../../src/tokens/tokenizer.js';

/** The encoder's cache, read through gpt-tokenizer's internals (no public accessor). */
function cachedWords(): number {
  const processor = (cl100k as unknown as { bytePairEncodingCoreProcessor: { mergeCache?: Map<unknown, unknown> } }).bytePairEncodingCoreProcessor;
  return processor.mergeCache?.size ?? 0;
}

/** A word of letters only (digits would be split off by the pre-tokenizer), different for each `n`, that no single token spells. */
function distinctWord(n: number): string {
  let word = 'qzx';
  for (let rest = n; ; rest = Math.floor(rest / 26)) {
    word += String.fromCharCode(97 + (rest % 26));
    if (rest < 26) break;
  }
  return `${word}vkq`;
}

describe('the encoder’s merge cache', () => {
  it(`keeps at most ${MERGE_CACHE_ENTRIES} words, however many distinct words callers send`, () => {
    for (let i = 0; i < MERGE_CACHE_ENTRIES + 5_000; i++) countTokensExactly(distinctWord(i));
    const size = cachedWords();
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThanOrEqual(MERGE_CACHE_ENTRIES);
  });
});
