import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAllChunks, readChunks } from '../../../src/upstreams/read-chunks.js';

const mapError = (error: unknown): Error => new Error(`mapped: ${(error as Error).message}`);

describe('readChunks', () => {
  it('hands out the pushed chunks one by one, the same buffers, then ends', async () => {
    const a = Buffer.from('first');
    const b = Buffer.from('second');
    const iterator = readChunks(Readable.from([a, b], { objectMode: false }), mapError);
    const first = await iterator.next();
    const second = await iterator.next();
    expect(first.value).toBe(a);
    expect(second.value).toBe(b);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('never joins buffered chunks (the stream`s own iterator does) and pauses between reads', async () => {
    const source = new PassThrough();
    const iterator = readChunks(source, mapError);
    source.write(Buffer.from('one'));
    source.write(Buffer.from('two'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(true);
    expect(Buffer.from((await iterator.next()).value!).toString()).toBe('one');
    expect(Buffer.from((await iterator.next()).value!).toString()).toBe('two');
    source.end();
    expect((await iterator.next()).done).toBe(true);
  });

  it('maps an error, and reports a close without end as a premature close', async () => {
    const failing = new PassThrough();
    const iterator = readChunks(failing, mapError);
    const pending = iterator.next();
    failing.destroy(new Error('socket reset'));
    await expect(pending).rejects.toThrow('mapped: socket reset');
    const cut = new PassThrough();
    const cutIterator = readChunks(cut, (error) => error as Error);
    cut.destroy();
    await expect(cutIterator.next()).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('return() destroys the stream and ends a pending read', async () => {
    const source = new PassThrough();
    const iterator = readChunks(source, mapError);
    const pending = iterator.next();
    await iterator.return!();
    expect(source.destroyed).toBe(true);
    expect(await pending).toEqual({ done: true, value: undefined });
  });
  it('return() on a stream whose destroy emits an error (as undici bodies do) raises nothing uncaught', async () => {
    // undici's BodyReadable._destroy turns a destroy without an error into an AbortError.
    const source = new Readable({
      read() {},
      destroy(_error, callback) {
        callback(new Error('Request aborted'));
      },
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => {
      uncaught.push(error);
    };
    process.on('uncaughtException', onUncaught);
    try {
      const iterator = readChunks(source, mapError);
      source.push(Buffer.from('partial'));
      await iterator.next();
      await iterator.return!();
      await new Promise((resolve) => setImmediate(resolve));
      expect(source.destroyed).toBe(true);
      expect(source.listenerCount('error')).toBeGreaterThan(0);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});

describe('readChunks: request() (a waiter instead of a promise per read)', () => {
  function recorder() {
    const seen: string[] = [];
    const waiter = {
      resolve: (result: IteratorResult<Uint8Array, undefined>) => seen.push(result.done ? 'end' : `chunk:${Buffer.from(result.value).toString()}`),
      reject: (error: unknown) => seen.push(`error:${(error as Error).message}`),
    };
    return { seen, waiter };
  }

  it('hands a chunk that arrives to the waiting reader from its data event, and keeps the stream flowing meanwhile', async () => {
    const source = new PassThrough();
    const reader = readChunks(source, mapError);
    const { seen, waiter } = recorder();
    reader.request(waiter);
    source.write(Buffer.from('one'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['chunk:one']);
    expect(source.isPaused()).toBe(false);
    // Nobody waits: the next chunk is held and the stream paused (a reader that stops holds it back).
    source.write(Buffer.from('two'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(true);
    expect(seen).toEqual(['chunk:one']);
    // A held chunk goes out from a later turn, never from inside request().
    reader.request(waiter);
    expect(seen).toEqual(['chunk:one']);
    await Promise.resolve();
    expect(seen).toEqual(['chunk:one', 'chunk:two']);
    source.end();
    reader.request(waiter);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['chunk:one', 'chunk:two', 'end']);
  });

  it('maps an error for the waiter, and return() ends a waiting read', async () => {
    const failing = new PassThrough();
    const first = recorder();
    readChunks(failing, mapError).request(first.waiter);
    failing.destroy(new Error('socket reset'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(first.seen).toEqual(['error:mapped: socket reset']);

    const source = new PassThrough();
    const reader = readChunks(source, mapError);
    const second = recorder();
    reader.request(second.waiter);
    await reader.return!();
    expect(second.seen).toEqual(['end']);
    expect(source.destroyed).toBe(true);
  });
});

describe('readAllChunks', () => {
  it('returns one chunk as it is and joins several', async () => {
    const only = Buffer.from('only');
    expect(await readAllChunks(Readable.from([only], { objectMode: false }), 100, mapError)).toBe(only);
    const joined = await readAllChunks(Readable.from([Buffer.from('ab'), Buffer.from('cd')], { objectMode: false }), 100, mapError);
    expect(Buffer.from(joined!).toString()).toBe('abcd');
  });

  it('past the limit: undefined and the stream destroyed', async () => {
    const source = new PassThrough();
    const reading = readAllChunks(source, 5, mapError);
    source.write(Buffer.from('abc'));
    source.write(Buffer.from('def'));
    expect(await reading).toBeUndefined();
    expect(source.destroyed).toBe(true);
  });

  it('maps an error, reports a close without end as a premature close, and leaves no listener behind', async () => {
    const failing = new PassThrough();
    const failed = readAllChunks(failing, 100, mapError);
    failing.destroy(new Error('boom'));
    await expect(failed).rejects.toThrow('mapped: boom');
    const closing = new PassThrough();
    const closed = readAllChunks(closing, 100, mapError);
    closing.write('partial');
    closing.destroy();
    await expect(closed).rejects.toThrow('mapped: Premature close');
    for (const stream of [failing, closing]) {
      expect(stream.listenerCount('data') + stream.listenerCount('end') + stream.listenerCount('close')).toBe(0);
    }
  });
});
