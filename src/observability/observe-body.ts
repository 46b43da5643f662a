/**
 * Wraps a streamed response body to learn when it ends (completed, failed
 * or abandoned by the client), without changing what is sent. A
 * hand-written iterator rather than a generator, so that `return()` reaches
 * the inner body at once (the SSE relay relies on it to abort upstreams).
 *
 * @internal
 */
class ObservedBody implements AsyncIterableIterator<Uint8Array> {
  private readonly inner: AsyncIterator<Uint8Array>;
  private ended = false;

  constructor(body: AsyncIterable<Uint8Array>, private readonly onEnd: () => void) {
    this.inner = body[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  // Not `async`: one promise per chunk rather than three (each costs more under an SDK's async context tracking).
  next(): Promise<IteratorResult<Uint8Array>> {
    let pending: Promise<IteratorResult<Uint8Array>>;
    try {
      pending = Promise.resolve(this.inner.next());
    } catch (error) {
      this.end();
      return Promise.reject(error);
    }
    return pending.then(this.onResult, this.onError);
  }

  private readonly onResult = (result: IteratorResult<Uint8Array>): IteratorResult<Uint8Array> => {
    if (result.done) this.end();
    return result;
  };

  private readonly onError = (error: unknown): never => {
    this.end();
    throw error;
  };

  async return(value?: unknown): Promise<IteratorResult<Uint8Array>> {
    try {
      return (await this.inner.return?.(value)) ?? { done: true, value: undefined };
    } finally {
      this.end();
    }
  }

  async throw(error?: unknown): Promise<IteratorResult<Uint8Array>> {
    try {
      if (this.inner.throw) return await this.inner.throw(error);
      throw error;
    } finally {
      this.end();
    }
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    try {
      this.onEnd();
    } catch {
      // Observers must never break the response they watch.
    }
  }
}

/** `body`, calling `onEnd` once when it is done, failed or returned early. */
export function observeBody(body: AsyncIterable<Uint8Array>, onEnd: () => void): AsyncIterableIterator<Uint8Array> {
  return new ObservedBody(body, onEnd);
}
