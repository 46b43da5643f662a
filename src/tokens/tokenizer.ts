/**
 * The one tokenizer behind every token count of the gateway and the simulator.
 *
 * We use the `cl100k_base` byte-pair encoding of gpt-tokenizer: a real
 * tokenizer from the npm registry whose counts track the vendors' closely
 * enough for budgets, usage and tests. The module loads the encoding once (on
 * import) and shares it.
 */
import { decoder as sharedDecoder } from 'gpt-tokenizer/BytePairEncodingCore';
import { countTokens, decode, encode, setMergeCacheSize } from 'gpt-tokenizer/encoding/cl100k_base';

/**
 * Words whose merges the encoder remembers, across requests. Its default
 * (100,000) let callers' never-seen words hold about 160 MB (random
 * 256-character pieces); 10,000 hold about 16 MB, and ordinary prose, whose
 * words repeat, counts as fast. @internal
 */
export const MERGE_CACHE_ENTRIES = 10_000;
setMergeCacheSize(MERGE_CACHE_ENTRIES);

// Treat `<|endoftext|>` and friends as ordinary text: callers' prompts may
// contain them, and the default setting would throw instead of counting.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Longest run of whitespace, or of non-whitespace, encoded in one piece.
 * Byte-pair merging is quadratic in the length of a pre-tokenized word, and
 * the encoder's pre-tokenizer keeps a run of either kind in one word (a
 * prompt of 16,000 spaces took seconds), so a prompt holding a long run
 * (base64 pasted as text, a minified blob, padding) would block the event
 * loop; cutting runs into pieces keeps encoding linear and changes counts by
 * at most a token per piece.
 */
const MAX_RUN = 256;

/** True for the characters of JavaScript's `\s`, the class the encoder's pre-tokenizer splits words on. @internal */
export function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f ||
    code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/**
 * `text` cut so that no run of whitespace or of non-whitespace is longer
 * than {@link MAX_RUN} (surrogate pairs kept whole): one pass over the
 * characters. Ordinary text comes back as one piece, itself.
 */
function splitLongRuns(text: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  let runStart = 0;
  let runIsSpace = text.length > 0 && isWhitespace(text.charCodeAt(0));
  for (let i = 1; i < text.length; i++) {
    const isSpace = isWhitespace(text.charCodeAt(i));
    if (isSpace !== runIsSpace) {
      runIsSpace = isSpace;
      runStart = i;
    } else if (i - runStart >= MAX_RUN) {
      const code = text.charCodeAt(i);
      const cut = code >= 0xdc00 && code <= 0xdfff ? i - 1 : i;
      pieces.push(text.slice(from, cut));
      from = cut;
      runStart = cut;
    }
  }
  pieces.push(from === 0 ? text : text.slice(from));
  return pieces;
}

/** The token ids of `text` (special-token markers are encoded as plain text). */
export function encodeText(text: string): number[] {
  if (text.length === 0) return [];
  if (text.length <= MAX_RUN) return encode(text, PLAIN_TEXT);
  return splitLongRuns(text).flatMap((piece) => encode(piece, PLAIN_TEXT));
}

/** The text of `tokens`; ends in U+FFFD when the last character is split across tokens. */
export function decodeTokens(tokens: readonly number[]): string {
  if (tokens.length === 0) return '';
  // gpt-tokenizer 3 decodes with one shared streaming TextDecoder that it
  // never flushes: the bytes of a character cut at the end stay buffered and
  // leak into the next call. Flush before (someone else's leftovers) and
  // after (ours, which become the U+FFFD that marks the cut).
  sharedDecoder.decode();
  return decode(tokens) + sharedDecoder.decode();
}

/**
 * The exact number of tokens of `text` (the length of {@link encodeText},
 * counted without building the array). Linear but about a microsecond per
 * character: request text is counted through a `TokenCounter`
 * (`token-counter.ts`), which bounds the exact part.
 */
export function countTokensExactly(text: string): number {
  if (text.length === 0) return 0;
  if (text.length <= MAX_RUN) return countTokens(text, PLAIN_TEXT);
  let count = 0;
  for (const piece of splitLongRuns(text)) count += countTokens(piece, PLAIN_TEXT);
  return count;
}
