/**
 * Token counting with a per-request budget of exactly counted characters.
 *
 * The tokenizer costs about 0.4 µs per character on prose and code it has
 * mostly seen (its cache of words hits) and 1 to 4 µs per character on text
 * it has not (random letters, base64, CJK, emoji), whatever the length of
 * the pieces it is handed. A request may carry tens of megabytes of text,
 * so counting all of it exactly could block the event loop for a minute.
 * One {@link TokenCounter} serves all the texts of one request: the first
 * {@link EXACT_CHARACTERS_PER_REQUEST} characters are counted exactly (at
 * most a few tens of ms on any text), the rest is estimated from its UTF-8
 * size at the tokens-per-byte ratio of the text counted so far. Tokens per
 * byte vary less between scripts than tokens per character (about 1 token
 * per 1.4 bytes for CJK, emoji or base64, per 4 bytes for English), so the
 * estimate stays in range when a request switches scripts; on ordinary
 * text it is within a few percent of the exact count.
 */
import { countTokensExactly } from './tokenizer.js';

/** Characters of one request counted exactly before the rest is estimated (see the module comment). */
export const EXACT_CHARACTERS_PER_REQUEST = 16_384;

/** Tokens per UTF-8 byte assumed before anything was counted (about four bytes per token). */
const DEFAULT_TOKENS_PER_BYTE = 1 / 4;

/** The exact and estimated token counts of the texts of one request. */
export class TokenCounter {
  #remaining: number;
  #exactTokens = 0;
  #exactBytes = 0;
  #estimated = false;

  constructor(exactCharacters: number = EXACT_CHARACTERS_PER_REQUEST) {
    this.#remaining = Math.max(0, Math.floor(exactCharacters));
  }

  /** True once some text was estimated rather than counted exactly. */
  get estimated(): boolean {
    return this.#estimated;
  }

  /** The tokens of `text`: exact while the budget lasts, then estimated from its size. */
  count(text: string): number {
    if (text.length === 0) return 0;
    if (text.length <= this.#remaining) return this.#exact(text);
    const cut = cutBefore(text, this.#remaining);
    const exact = cut > 0 ? this.#exact(text.slice(0, cut)) : 0;
    this.#remaining = 0;
    this.#estimated = true;
    const restBytes = Buffer.byteLength(text, 'utf8') - (cut > 0 ? Buffer.byteLength(text.slice(0, cut), 'utf8') : 0);
    const ratio = this.#exactBytes > 0 ? this.#exactTokens / this.#exactBytes : DEFAULT_TOKENS_PER_BYTE;
    return exact + Math.ceil(restBytes * ratio);
  }

  #exact(text: string): number {
    const tokens = countTokensExactly(text);
    this.#remaining -= text.length;
    this.#exactTokens += tokens;
    this.#exactBytes += Buffer.byteLength(text, 'utf8');
    return tokens;
  }
}

/** `at`, moved back one when it would split a surrogate pair. */
function cutBefore(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/** The tokens of one text on its own budget (a request of one text). */
export function countTextTokens(text: string): number {
  return new TokenCounter().count(text);
}
