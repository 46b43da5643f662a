/**
 * An async iterator over a Node `Readable` that hands out the chunks as
 * they were pushed. The stream's own iterator calls `read()`, which joins
 * everything buffered into one new buffer: for a stream read slower than
 * it arrives (a slow client holding back its upstream) that is a fresh
 * copy of up to `highWaterMark` bytes per read, garbage that a bare
 * `pipeline` never makes. Here the stream is resumed for one `data` event
 * at a time and paused again, so nothing is copied.
 *
 * @internal
 */
import type { Readable } from 'node:stream';

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

// Once the reader is done with a stream, a later 'error' (undici emits one when
// `return()` destroys an unfinished body) must not become an uncaught exception.
const ignoreError = (): void => {};

/** Chunk-by-chunk reads of `readable`; errors go through `mapError`. `return()` destroys the stream. */
export function readChunks(readable: Readable, mapError: (error: unknown) => Error): AsyncIterator<Uint8Array, undefined> {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: unknown;
  let waiter: { resolve: (result: IteratorResult<Uint8Array, undefined>) => void; reject: (error: unknown) => void } | undefined;

  const wake = (): void => {
    const current = waiter;
    if (current === undefined) return;
    const chunk = queue.shift();
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
    readable.on('error', ignoreError);
  };
  const onData = (chunk: Uint8Array): void => {
    readable.pause();
    queue.push(chunk);
    wake();
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
  readable.pause();

  return {
    next() {
      if (queue.length > 0) return Promise.resolve({ done: false, value: queue.shift()! });
      if (failure !== undefined) return Promise.reject(mapError(failure));
      if (ended) return Promise.resolve(DONE);
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
        readable.resume();
      });
    },
    return() {
      cleanup();
      ended = true;
      queue.length = 0;
      if (!readable.destroyed) readable.destroy();
      const current = waiter;
      waiter = undefined;
      current?.resolve(DONE);
      return Promise.resolve(DONE);
    },
  };
}
