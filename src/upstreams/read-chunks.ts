/**
 * An async iterator over a Node `Readable` that hands out the chunks as
 * they were pushed. The stream's own iterator calls `read()`, which joins
 * everything buffered into one new buffer: for a stream read slower than
 * it arrives (a slow client holding back its upstream) that is a fresh
 * copy of up to `highWaterMark` bytes per read, garbage that a bare
 * `pipeline` never makes. Here the stream flows and its `data` chunks are
 * queued as they are (no copy); like `pipeline`, it is paused while the
 * queue holds `QUEUE_BYTES` or more, and resumed once the reader took
 * enough (so a fast reader costs no pause/resume per chunk).
 *
 * @internal
 */
import type { Readable } from 'node:stream';

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** Bytes queued before the stream is paused (its own buffer holds up to its `highWaterMark` more). */
const QUEUE_BYTES = 16 * 1024;

/** Chunk-by-chunk reads of `readable`; errors go through `mapError`. `return()` destroys the stream. */
export function readChunks(readable: Readable, mapError: (error: unknown) => Error): AsyncIterator<Uint8Array, undefined> {
  const queue: Uint8Array[] = [];
  let queued = 0;
  let ended = false;
  let failure: unknown;
  let waiter: { resolve: (result: IteratorResult<Uint8Array, undefined>) => void; reject: (error: unknown) => void } | undefined;

  const wake = (): void => {
    const current = waiter;
    if (current === undefined) return;
    const chunk = shift();
    if (chunk !== undefined) {
      waiter = undefined;
      current.resolve({ done: false, value: chunk });
    } else if (failure !== undefined) {
      waiter = undefined;
      current.reject(mapError(failure));
    } else if (ended) {
      waiter = undefined;
      current.resolve(DONE);
    }
  };
  const cleanup = (): void => {
    readable.off('data', onData);
    readable.off('end', onEnd);
    readable.off('error', onError);
    readable.off('close', onClose);
  };
  const onData = (chunk: Uint8Array): void => {
    queue.push(chunk);
    queued += chunk.byteLength;
    if (queued >= QUEUE_BYTES) readable.pause();
    wake();
  };
  /** The next queued chunk, resuming the stream once the queue is short again. */
  const shift = (): Uint8Array | undefined => {
    const chunk = queue.shift();
    if (chunk === undefined) return undefined;
    queued -= chunk.byteLength;
    if (queued < QUEUE_BYTES && readable.isPaused() && !ended && failure === undefined) readable.resume();
    return chunk;
  };
  const onEnd = (): void => {
    ended = true;
    cleanup();
    wake();
  };
  const onError = (error: unknown): void => {
    failure = error;
    cleanup();
    wake();
  };
  // Destroyed without an error or an end (aborted): a premature close.
  const onClose = (): void => {
    if (!ended && failure === undefined) failure = Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    cleanup();
    wake();
  };
  readable.on('data', onData);
  readable.on('end', onEnd);
  readable.on('error', onError);
  readable.on('close', onClose);

  return {
    next() {
      const chunk = shift();
      if (chunk !== undefined) return Promise.resolve({ done: false, value: chunk });
      if (failure !== undefined) return Promise.reject(mapError(failure));
      if (ended) return Promise.resolve(DONE);
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
      });
    },
    return() {
      cleanup();
      ended = true;
      queue.length = 0;
      queued = 0;
      if (!readable.destroyed) readable.destroy();
      const current = waiter;
      waiter = undefined;
      current?.resolve(DONE);
      return Promise.resolve(DONE);
    },
  };
}
