/**
 * The input tokens of an embeddings request: each text by the tokenizer (one
 * {@link TokenCounter} budget for the whole request, as for chat), each list
 * of token ids by its length. An embedding has no framing tokens: OpenAI's
 * `usage.prompt_tokens` is the tokens of the inputs alone.
 */
import { TokenCounter } from './token-counter.js';

/** The input tokens of `input` (a text, texts, token ids or lists of them); anything else counts 0. */
export function countEmbeddingsInputTokens(input: unknown): number {
  const counter = new TokenCounter();
  const one = (entry: unknown): number => {
    if (typeof entry === 'string') return counter.count(entry);
    return Array.isArray(entry) ? entry.length : 0;
  };
  if (!Array.isArray(input)) return one(input);
  // A list of token ids is one input; a list of texts or of token lists is many.
  if (input.length > 0 && typeof input[0] === 'number') return input.length;
  let total = 0;
  for (const entry of input) total += one(entry);
  return total;
}
