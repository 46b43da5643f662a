/**
 * The one tokenizer behind every token count of the gateway and the simulator.
 *
 * We use the `cl100k_base` byte-pair encoding of gpt-tokenizer: a real
 * tokenizer from the npm registry whose counts track the vendors' closely
 * enough for budgets, usage and tests. The module loads the encoding once (on
 * import) and shares it.
 */
import { decoder as sharedDecoder } from 'gpt-tokenizer/BytePairEncodingCore';
import { countTokens, decode, encode } from 'gpt-tokenizer/encoding/cl100k_base';

// Treat `<|endoftext|>` and friends as ordinary text: callers' prompts may
// contain them, and the default setting would throw instead of counting.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Longest run of non-whitespace encoded in one piece. Byte-pair merging is
 * quadratic in the length of a pre-tokenized word, so a prompt holding a long
 * unbroken run (base64 pasted as text, a minified blob) would block the event
 * loop for seconds; cutting runs into pieces keeps encoding linear and
 * changes counts by at most a token per piece.
 */
const MAX_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, 'g');

/**
 * False when `text` surely has no run longer than {@link MAX_RUN}: one
 * linear pass that breaks runs at ASCII whitespace only, so the runs it sees
 * are never shorter than the real ones (`\s` also has Unicode spaces). The
 * exact {@link LONG_RUN} search, much slower on ordinary prose (it retries
 * from every character of every word), runs only when this says maybe.
 */
function mayHaveLongRun(text: string): boolean {
  if (text.length <= MAX_RUN) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 32 || (code >= 9 && code <= 13)) run = 0;
    else if (++run > MAX_RUN) return true;
  }
  return false;
}

/** `text` cut so that no run of non-whitespace is longer than {@link MAX_RUN} (surrogate pairs kept whole). */
function splitLongRuns(text: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const end = match.index + match[0].length;
    let at = match.index;
    while (end - at > MAX_RUN) {
      let cut = at + MAX_RUN;
      const code = text.charCodeAt(cut);
      if (code >= 0xdc00 && code <= 0xdfff) cut -= 1;
      pieces.push(text.slice(from, cut));
      from = cut;
      at = cut;
    }
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** The token ids of `text` (special-token markers are encoded as plain text). */
export function encodeText(text: string): number[] {
  if (text.length === 0) return [];
  if (!mayHaveLongRun(text)) return encode(text, PLAIN_TEXT);
  LONG_RUN.lastIndex = 0;
  if (!LONG_RUN.test(text)) return encode(text, PLAIN_TEXT);
  LONG_RUN.lastIndex = 0;
  return splitLongRuns(text).flatMap((piece) => (piece.length === 0 ? [] : encode(piece, PLAIN_TEXT)));
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

/** The number of tokens of `text` (the length of {@link encodeText}, counted without building the array). */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (!mayHaveLongRun(text)) return countTokens(text, PLAIN_TEXT);
  LONG_RUN.lastIndex = 0;
  if (!LONG_RUN.test(text)) return countTokens(text, PLAIN_TEXT);
  LONG_RUN.lastIndex = 0;
  let count = 0;
  for (const piece of splitLongRuns(text)) if (piece.length > 0) count += countTokens(piece, PLAIN_TEXT);
  return count;
}
