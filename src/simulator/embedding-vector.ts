/**
 * The simulator's embeddings: a deterministic unit vector per (model,
 * input), so the same text always gets the same vector and different texts
 * almost surely different ones.
 *
 * The components are drawn from a PRNG seeded with a hash of the model and
 * the input, so a shorter vector (`dimensions`) is the longer one's prefix,
 * normalised again: what OpenAI's `text-embedding-3` models return when
 * asked to shorten. Each component is a float32 value, as OpenAI's are, so
 * the `float` and `base64` encodings of a vector carry the same numbers.
 */
import { createRandom, hashString } from './random.js';

/** The unit vector of `size` components for `input` (a text or its token ids) on `model`. */
export function embeddingVector(model: string, input: string | readonly number[], size: number): number[] {
  const key = typeof input === 'string' ? `text:${input}` : `tokens:${input.join(',')}`;
  const random = createRandom(hashString(key, hashString(model)));
  const raw = new Float64Array(size);
  let squares = 0;
  for (let i = 0; i < size; i++) {
    const value = random.next() * 2 - 1;
    raw[i] = value;
    squares += value * value;
  }
  const norm = Math.sqrt(squares) || 1;
  const vector = new Array<number>(size);
  for (let i = 0; i < size; i++) vector[i] = Math.fround(raw[i]! / norm);
  return vector;
}

/** `vector` as OpenAI's `encoding_format: "base64"` sends it: little-endian float32 bytes, base64. */
export function encodeEmbeddingBase64(vector: readonly number[]): string {
  const bytes = new ArrayBuffer(vector.length * 4);
  const view = new DataView(bytes);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return Buffer.from(bytes).toString('base64');
}
