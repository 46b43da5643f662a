/**
 * What the test stubs of OpenAI-compatible servers and Azure OpenAI answer
 * to an embeddings request: one small fixed vector per input (`[0.25, -0.5,
 * index]`, exact in float32), in floats or, with `encoding_format:
 * "base64"`, as the little-endian float32 bytes OpenAI sends, and a usage
 * figure of the stub's own (7 tokens per input), so tests can tell the
 * upstream's numbers from anything the gateway would compute.
 */

/** The vector the stub gives input `index`. */
export function stubVector(index: number): number[] {
  return [0.25, -0.5, index];
}

/** The prompt tokens the stub reports per input. */
export const STUB_TOKENS_PER_INPUT = 7;

function inputCount(input: unknown): number {
  if (!Array.isArray(input)) return 1;
  return input.length > 0 && typeof input[0] === 'number' ? 1 : input.length;
}

function base64Of(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}

/** The OpenAI embeddings response for `body`, under `model`. */
export function embeddingsAnswer(body: Record<string, unknown>, model: string): Record<string, unknown> {
  const count = inputCount(body.input);
  const base64 = body.encoding_format === 'base64';
  const data = Array.from({ length: count }, (_, index) => ({ object: 'embedding', index, embedding: base64 ? base64Of(stubVector(index)) : stubVector(index) }));
  const tokens = count * STUB_TOKENS_PER_INPUT;
  return { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}
