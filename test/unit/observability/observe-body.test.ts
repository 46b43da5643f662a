import { describe, expect, it } from 'vitest';
import { observeBody } from '../../../src/observability/observe-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

async function* chunks(items: string[], failAfter?: number): AsyncGenerator<Uint8Array> {
  for (const [index, item] of items.entries()) {
    if (failAfter === index) throw new Error('cut');
    yield bytes(item);
  }
}

describe('observeBody', () => {
  it('passes every chunk through unchanged and calls onEnd once when the body is done', async () => {
    let ends = 0;
    const seen: string[] = [];
    for await (const chunk of observeBody(chunks(['a', 'b', 'c']), () => ends++)) seen.push(new TextDecoder().decode(chunk));
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(ends).toBe(1);
  });

  it('calls onEnd once when the body fails, and rethrows its error', async () => {
    let ends = 0;
    const body = observeBody(chunks(['a', 'b'], 1), () => ends++);
    await expect((async () => { for await (const chunk of body) void chunk; })()).rejects.toThrow('cut');
    expect(ends).toBe(1);
  });

  it('calls onEnd once when the reader stops early, and returns the inner body at once', async () => {
    let ends = 0;
    let innerReturned = false;
    const inner = (async function* () {
      try {
        yield bytes('a');
        yield bytes('b');
      } finally {
        innerReturned = true;
      }
    })();
    for await (const chunk of observeBody(inner, () => ends++)) {
      void chunk;
      break;
    }
    expect(innerReturned).toBe(true);
    expect(ends).toBe(1);
  });

  it('a throwing onEnd never breaks the body', async () => {
    const seen: number[] = [];
    for await (const chunk of observeBody(chunks(['x']), () => { throw new Error('observer'); })) seen.push(chunk.byteLength);
    expect(seen).toEqual([1]);
  });

  it('an inner next() that throws synchronously rejects and ends', async () => {
    let ends = 0;
    const inner: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next: () => { throw new Error('sync'); } }) };
    await expect(observeBody(inner, () => ends++).next()).rejects.toThrow('sync');
    expect(ends).toBe(1);
  });
});
