/**
 * The one tokenizer behind every token count of the gateway and the simulator.
 *
 * We use the `cl100k_base` byte-pair encoding of gpt-tokenizer: a real
 * tokenizer from the npm registry whose counts track the vendors' closely
 * enough for budgets, usage and tests. The module loads the encoding once (on
 * import) and shares it.
 */
import { decoder as sharedDecoder } from 'gpt-tokenizer/BytePairEncodingCore';
import { decode, encode } from 'gpt-tokenizer/encoding/cl100k_base';

// Treat `<|endoftext|>` and friends as ordinary text: callers' prompts may
// contain them, and the default setting would throw instead of counting.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** The token ids of `text` (special-token markers are encoded as plain text). */
export function encodeText(text: string): number[] {
  if (text.length === 0) return [];
  return encode(text, PLAIN_TEXT);
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

/** The number of tokens of `text`. */
export function countTextTokens(text: string): number {
  return encodeText(text).length;
}
