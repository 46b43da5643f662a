/**
 * An async iterator over a Node `Readable` that hands out the chunks as
 * they were pushed. The stream's own iterator calls `read()`, which joins
 * everything buffered into one new buffer: for a stream read slower than
 * it arrives (a slow client holding back its upstream) that is a fresh
 * copy of up to `highWaterMark` bytes per read, garbage that a bare
 * `pipeline` never makes. Here the stream flows while a read waits and is
 * paused as soon as a chunk arrives that no read waits for: nothing is
 * copied, and a reader that stops holds the stream back. `readAllChunks`
 * reads a whole body with the same listeners and error rules, in one promise.
 *
 * @internal
 */
import type { Readable } from 'node:stream';

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

// Once the reader is done with a stream, a later 'error' (undici emits one when
// `return()` destroys an unfinished body) must not become an uncaught exception.
const ignoreError = (): void => {};

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** Listens to a readable's body events until `stop()`, after which a late 'error' is ignored. */
function listen(
  readable: Readable,
  handlers: { onData: (chunk: Buffer) => void; onEnd: () => void; onError: (error: unknown) => void; onClose: () => void },
): () => void {
  const { onData, onEnd, onError, onClose } = handlers;
  readable.on('data', onData);
  readable.on('end', onEnd);
  readable.on('error', onError);
  readable.on('close', onClose);
  return () => {
    readable.off('data', onData);
    readable.off('end', onEnd);
    readable.off('error', onError);
    readable.off('close', onClose);
    readable.on('error', ignoreError);
  };
}

/**
 * The whole body (one chunk as is, several joined), or `undefined` once it
 * passes `limit` bytes (the stream is then destroyed). Errors, and a close
 * before the end, reject through `mapError`, as with `readChunks`.
 */
export function readAllChunks(readable: Readable, limit: number, mapError: (error: unknown) => Error): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = listen(readable, {
      onData(chunk) {
        size += chunk.byteLength;
        if (size <= limit) return void chunks.push(chunk);
        stop();
        readable.destroy();
        resolve(undefined);
      },
      onEnd() {
        stop();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      },
      onError(error) {
        stop();
        reject(mapError(error));
      },
      onClose() {
        stop();
        reject(mapError(prematureClose()));
      },
    });
  });
}

/** Who receives the outcome of one read: a `next()`'s promise, or a long-lived reader (`request`). */
export interface ChunkWaiter {
  resolve(result: IteratorResult<Uint8Array, undefined>): void;
  reject(error: unknown): void;
}

/** An iterator over a body that can also hand a read's outcome to a waiter without a promise per read. */
export interface ChunkReader extends AsyncIterator<Uint8Array, undefined> {
  /**
   * Like `next()`, but the outcome goes to `waiter` (a method call on it),
   * always from a later turn. One read at a time, `next()` or `request()`.
   */
  request(waiter: ChunkWaiter): void;
}

/** Whether `iterator` is a `ChunkReader` (the built-in HTTP upstreams' bodies are). */
export function isChunkReader(iterator: AsyncIterator<Uint8Array>): iterator is ChunkReader {
  return typeof (iterator as Partial<ChunkReader>).request === 'function';
}

/**
 * Chunk-by-chunk reads of `readable`; errors go through `mapError`. `return()` destroys the stream.
 * A class rather than closures: an open stream holds one object and its four listeners.
 */
class ReadableChunks implements ChunkReader {
  private readonly queue: Uint8Array[] = [];
  private ended = false;
  private failure: unknown = undefined;
  private waiter: ChunkWaiter | undefined = undefined;
  private listening = true;

  constructor(
    private readonly readable: Readable,
    private readonly mapError: (error: unknown) => Error,
  ) {
    readable.on('data', this.onData);
    readable.on('end', this.onEnd);
    readable.on('error', this.onError);
    readable.on('close', this.onClose);
    readable.pause();
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.queue.shift()! });
    if (this.failure !== undefined) return Promise.reject(this.mapError(this.failure));
    if (this.ended) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      if (this.readable.readableFlowing !== true) this.readable.resume();
    });
  }

  request(waiter: ChunkWaiter): void {
    this.waiter = waiter;
    // Something to hand out already: from a later turn, as a promise's outcome would be.
    if (this.queue.length > 0 || this.failure !== undefined || this.ended) queueMicrotask(this.wake);
    else if (this.readable.readableFlowing !== true) this.readable.resume();
  }

  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.stopListening();
    this.ended = true;
    this.queue.length = 0;
    if (!this.readable.destroyed) this.readable.destroy();
    const current = this.waiter;
    this.waiter = undefined;
    current?.resolve(DONE);
    return Promise.resolve(DONE);
  }

  /** Hands the waiter what there is to hand: a chunk, the failure, or the end. */
  private readonly wake = (): void => {
    const current = this.waiter;
    if (current === undefined) return;
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      this.waiter = undefined;
      current.resolve({ done: false, value: chunk });
    } else if (this.failure !== undefined) {
      this.waiter = undefined;
      current.reject(this.mapError(this.failure));
    } else if (this.ended) {
      this.waiter = undefined;
      current.resolve(DONE);
    }
  };

  private readonly onData = (chunk: Uint8Array): void => {
    // A read waiting takes the chunk and the stream keeps flowing (a trickling upstream then costs no
    // pause and resume per chunk); one arriving while nobody reads waits here with the stream paused.
    const current = this.waiter;
    if (current !== undefined && this.queue.length === 0) {
      this.waiter = undefined;
      current.resolve({ done: false, value: chunk });
      return;
    }
    this.readable.pause();
    this.queue.push(chunk);
    this.wake();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    this.stopListening();
    this.wake();
  };

  private readonly onError = (error: unknown): void => {
    this.failure = error;
    this.stopListening();
    this.wake();
  };

  /** Destroyed without an error or an end (aborted): a premature close. */
  private readonly onClose = (): void => {
    if (!this.ended && this.failure === undefined) this.failure = prematureClose();
    this.stopListening();
    this.wake();
  };

  /** Stops listening (once); a later 'error' is then ignored rather than thrown. */
  private stopListening(): void {
    if (!this.listening) return;
    this.listening = false;
    const { readable } = this;
    readable.off('data', this.onData);
    readable.off('end', this.onEnd);
    readable.off('error', this.onError);
    readable.off('close', this.onClose);
    readable.on('error', ignoreError);
  }
}

/** Chunk-by-chunk reads of `readable`; errors go through `mapError`. `return()` destroys the stream. */
export function readChunks(readable: Readable, mapError: (error: unknown) => Error): ChunkReader {
  return new ReadableChunks(readable, mapError);
}
