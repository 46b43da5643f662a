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

/** The four body events a reader listens to. */
interface BodyListeners {
  onData: (chunk: Buffer) => void;
  onEnd: () => void;
  onError: (error: unknown) => void;
  onClose: () => void;
}

function listen(readable: Readable, listeners: BodyListeners): void {
  readable.on('data', listeners.onData);
  readable.on('end', listeners.onEnd);
  readable.on('error', listeners.onError);
  readable.on('close', listeners.onClose);
}

/** Stops `listen`ing; a later 'error' is then ignored rather than thrown. Call it once. */
function unlisten(readable: Readable, listeners: BodyListeners): void {
  readable.off('data', listeners.onData);
  readable.off('end', listeners.onEnd);
  readable.off('error', listeners.onError);
  readable.off('close', listeners.onClose);
  readable.on('error', ignoreError);
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
    let listening = true;
    const stop = (): void => {
      if (listening) unlisten(readable, listeners);
      listening = false;
    };
    const listeners: BodyListeners = {
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
    };
    listen(readable, listeners);
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
   * never from inside this call. One read at a time, `next()` or `request()`.
   */
  request(waiter: ChunkWaiter): void;
}

/** Any other body's iterator as a `ChunkReader` (a custom upstream's generator): `request` awaits its `next()`. */
class IteratorChunks implements ChunkReader {
  private waiter: ChunkWaiter | undefined;

  constructor(private readonly iterator: AsyncIterator<Uint8Array>) {}

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    return this.iterator.next() as Promise<IteratorResult<Uint8Array, undefined>>;
  }

  request(waiter: ChunkWaiter): void {
    this.waiter = waiter;
    this.iterator.next().then(this.onResult, this.onFailure);
  }

  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    const done = this.iterator.return?.(undefined);
    return done === undefined ? Promise.resolve(DONE) : (done as Promise<IteratorResult<Uint8Array, undefined>>);
  }

  private readonly onResult = (result: IteratorResult<Uint8Array>): void => {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve(result as IteratorResult<Uint8Array, undefined>);
  };

  private readonly onFailure = (error: unknown): void => {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(error);
  };
}

/** `iterator` as a `ChunkReader`: the built-in HTTP upstreams' bodies are one already. */
export function chunkReaderOf(iterator: AsyncIterator<Uint8Array>): ChunkReader {
  return iterator instanceof ReadableChunks ? iterator : new IteratorChunks(iterator);
}

/**
 * Chunk-by-chunk reads of `readable`; errors go through `mapError`. `return()` destroys the stream.
 * A class rather than closures: an open stream holds one object and its four listeners, which are
 * its own public fields (`listen` takes the object itself).
 */
class ReadableChunks implements ChunkReader, BodyListeners {
  private readonly queue: Uint8Array[] = [];
  private ended = false;
  private failure: unknown = undefined;
  private waiter: ChunkWaiter | undefined = undefined;
  private listening = true;

  constructor(
    private readonly readable: Readable,
    private readonly mapError: (error: unknown) => Error,
  ) {
    listen(readable, this);
    readable.pause();
  }

  /** A read as a promise (draining and tests; the relay uses `request`). */
  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    return new Promise((resolve, reject) => this.request({ resolve, reject }));
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

  readonly onData = (chunk: Uint8Array): void => {
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

  readonly onEnd = (): void => {
    this.ended = true;
    this.stopListening();
    this.wake();
  };

  readonly onError = (error: unknown): void => {
    this.failure = error;
    this.stopListening();
    this.wake();
  };

  /** Destroyed without an error or an end (aborted): a premature close. */
  readonly onClose = (): void => {
    if (!this.ended && this.failure === undefined) this.failure = prematureClose();
    this.stopListening();
    this.wake();
  };

  private stopListening(): void {
    if (this.listening) unlisten(this.readable, this);
    this.listening = false;
  }
}

/** Chunk-by-chunk reads of `readable`; errors go through `mapError`. `return()` destroys the stream. */
export function readChunks(readable: Readable, mapError: (error: unknown) => Error): ChunkReader {
  return new ReadableChunks(readable, mapError);
}
