/**
 * Random re-chunking for stream tests: cuts bytes at seeded random points, so
 * cuts land inside multibyte UTF-8 characters and between `\r` and `\n`.
 * Seeded, so a failing split can be replayed.
 */

/** A small seeded PRNG (mulberry32) returning floats in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
