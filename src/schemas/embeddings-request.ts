/**
 * The OpenAI embeddings request (`POST /v1/embeddings`) and its bounds.
 *
 * `input` is one text, a list of texts, one list of token ids or a list of
 * such lists. Its shape is checked by hand rather than by a zod union, so
 * that a failure names the entry and what to send (a union says only
 * "invalid input"), and so that the counts are checked before the entries
 * they count: a list of 100,000 texts is refused without reading them.
 *
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 */
import { z } from 'zod';

/** Most entries in `input`: OpenAI's limit per request. */
export const MAX_EMBEDDING_INPUTS = 2048;
/** Most token ids in one entry: OpenAI's per-input limit (8192 tokens). */
export const MAX_EMBEDDING_INPUT_TOKENS = 8192;
/**
 * Longest text of one entry, in characters: eight per token of the
 * per-input limit, more than any real 8192-token text holds (English
 * averages four), so only text no model could take is refused before the
 * gateway or an upstream tokenizes it.
 */
export const MAX_EMBEDDING_INPUT_CHARACTERS = 8 * MAX_EMBEDDING_INPUT_TOKENS;
/** Longest vector a request may ask for with `dimensions` (the largest embedding models return 3072 or 4096). */
export const MAX_EMBEDDING_DIMENSIONS = 65_536;

/** What `input` may be. */
export type EmbeddingsInput = string | string[] | number[] | number[][];

interface InputProblem {
  path: (string | number)[];
  message: string;
}

const SHAPES = 'send a string, an array of strings, an array of token ids (integers ≥ 0) or an array of such arrays';

function isTokenId(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function textProblem(text: string, path: (string | number)[]): InputProblem | undefined {
  if (text.length === 0) return { path, message: 'must not be an empty string; leave the entry out' };
  if (text.length > MAX_EMBEDDING_INPUT_CHARACTERS) {
    return { path, message: `${text.length} characters, more than the ${MAX_EMBEDDING_INPUT_CHARACTERS} one input may hold (its model takes at most ${MAX_EMBEDDING_INPUT_TOKENS} tokens); split the text into several inputs` };
  }
  return undefined;
}

/** The first problem of a list of token ids at `path`, or undefined. */
function tokensProblem(tokens: readonly unknown[], path: (string | number)[]): InputProblem | undefined {
  if (tokens.length === 0) return { path, message: 'must not be an empty array of token ids' };
  if (tokens.length > MAX_EMBEDDING_INPUT_TOKENS) {
    return { path, message: `${tokens.length} token ids, more than the ${MAX_EMBEDDING_INPUT_TOKENS} one input may hold; split it into several inputs` };
  }
  const bad = tokens.findIndex((token) => !isTokenId(token));
  return bad === -1 ? undefined : { path: [...path, bad], message: 'a token id must be an integer ≥ 0' };
}

/** The first problem of `input`, or undefined when it is one of the four shapes within bounds. */
function findInputProblem(input: unknown): InputProblem | undefined {
  const root = ['input'];
  if (typeof input === 'string') return textProblem(input, root);
  if (!Array.isArray(input)) return { path: root, message: input === undefined ? `field required: ${SHAPES}` : SHAPES };
  if (input.length === 0) return { path: root, message: 'must not be an empty array; send at least one input' };
  const first: unknown = input[0];
  // The first entry decides the shape (a number: one list of token ids); every other entry must have the same.
  if (typeof first === 'number') return tokensProblem(input, root);
  if (input.length > MAX_EMBEDDING_INPUTS) {
    return { path: root, message: `${input.length} inputs, more than the ${MAX_EMBEDDING_INPUTS} one request may hold; send them in several requests` };
  }
  for (let index = 0; index < input.length; index++) {
    const entry: unknown = input[index];
    const path = [...root, index];
    const problem =
      typeof first === 'string'
        ? typeof entry === 'string' ? textProblem(entry, path) : { path, message: 'expected a string, as every entry of a list of texts' }
        : Array.isArray(first)
          ? Array.isArray(entry) ? tokensProblem(entry, path) : { path, message: 'expected an array of token ids, as every entry of a list of token lists' }
          : { path, message: SHAPES };
    if (problem) return problem;
  }
  return undefined;
}

const inputSchema = z.custom<EmbeddingsInput>().superRefine((input, ctx) => {
  const problem = findInputProblem(input);
  if (problem) ctx.addIssue({ code: 'custom', path: problem.path.slice(1), message: problem.message, input });
});

/**
 * An embeddings request. Loose, like the other request schemas: a field
 * this gateway does not know passes through to the upstream untouched.
 */
export const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: inputSchema,
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().min(1).max(MAX_EMBEDDING_DIMENSIONS).optional(),
  user: z.string().max(256).optional(),
});

export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;
