/**
 * Token-aligned cutting of text: truncation to a budget and chunking for
 * streams. Both keep multi-byte characters whole.
 */
import { decodeTokens, encodeText } from './tokenizer.js';

const REPLACEMENT = '\uFFFD';

/** A prefix of `text` of at most `maxTokens` tokens, and its exact token count. */
export function truncateToTokens(text: string, maxTokens: number): { text: string; tokens: number; truncated: boolean } {
  const tokens = encodeText(text);
  if (tokens.length <= maxTokens) return { text, tokens: tokens.length, truncated: false };
  let end = Math.max(0, Math.floor(maxTokens));
  for (;;) {
    const prefix = decodeTokens(tokens.slice(0, end));
    // Never exceed the budget: drop a token that leaves half a character, and
    // re-count, because a cut word can encode differently on its own.
    const count = prefix.endsWith(REPLACEMENT) ? Number.POSITIVE_INFINITY : encodeText(prefix).length;
    if (count <= maxTokens || end === 0) return { text: prefix, tokens: end === 0 ? 0 : count, truncated: true };
    end -= 1;
  }
}

/** One piece of a token-chunked text. */
export interface TokenChunk {
  text: string;
  /** Tokens this piece stands for (for pacing). */
  tokens: number;
}

/**
 * Splits `text` into pieces of about `tokensPerChunk` tokens (default 3) whose
 * concatenation is exactly `text`.
 */
export function splitByTokens(text: string, tokensPerChunk = 3): TokenChunk[] {
  const tokens = encodeText(text);
  const size = Math.max(1, Math.floor(tokensPerChunk));
  const chunks: TokenChunk[] = [];
  let start = 0;
  while (start < tokens.length) {
    let end = Math.min(tokens.length, start + size);
    let piece = decodeTokens(tokens.slice(start, end));
    // Each piece starts on a character boundary; extend it until it also ends on one.
    while (piece.endsWith(REPLACEMENT) && end < tokens.length) {
      end += 1;
      piece = decodeTokens(tokens.slice(start, end));
    }
    chunks.push({ text: piece, tokens: end - start });
    start = end;
  }
  // Decoding is lossless for valid strings; fall back to one piece for lone surrogates.
  if (chunks.map((chunk) => chunk.text).join('') !== text) {
    return text.length === 0 ? [] : [{ text, tokens: tokens.length }];
  }
  return chunks;
}
