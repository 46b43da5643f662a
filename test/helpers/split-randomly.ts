/**
 * Random re-chunking for stream tests: cuts bytes at seeded random points, so
 * cuts land inside multibyte UTF-8 characters and between `\r` and `\n`.
 * Seeded, so a failing split can be replayed.
 */

import { createRandom as createSeededRandom } from '../../src/simulator/random.js';

/** A seeded PRNG returning floats in [0, 1): the simulator's mulberry32, as a bare function. */
export function createRandom(seed: number): () => number {
  return createSeededRandom(seed).next;
}

export interface SplitOptions {
  /** PRNG seed. Default 1. */
  seed?: number;
  /** Largest chunk in bytes. Default 16 (small chunks cut through most characters and line ends). */
  maxChunkSize?: number;
}

/** Splits `input` (UTF-8 encoded when a string) into chunks of 1..maxChunkSize bytes at random points. */
export function splitRandomly(input: Uint8Array | string, options: SplitOptions = {}): Uint8Array[] {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const random = createRandom(options.seed ?? 1);
  const max = Math.max(1, options.maxChunkSize ?? 16);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const size = 1 + Math.floor(random() * max);
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

/** The chunks as an async iterable body, like an upstream response's. */
export async function* toAsyncBody(chunks: Iterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  for (const chunk of chunks) yield chunk;
}
