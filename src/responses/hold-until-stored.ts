/**
 * Holds a streamed response's last chunk (the one that carries its terminal
 * event) until the response is stored: a client that starts its next turn
 * the moment it reads `response.completed` finds it by `previous_response_id`.
 *
 * @internal
 */

/** The stream transform's view of the finished response: set when it produced the terminal event. */
export interface FinishedResponseSource {
  readonly final: Record<string, unknown> | undefined;
}

class HoldUntilStored implements AsyncIterableIterator<Uint8Array, undefined> {
  private stored = false;

  constructor(
    private readonly inner: AsyncIterator<Uint8Array, undefined>,
    private readonly source: FinishedResponseSource,
    private readonly store: (response: Record<string, unknown>) => Promise<void>,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array, undefined>> {
    const result = await this.inner.next();
    const final = this.source.final;
    if (!this.stored && final !== undefined) {
      this.stored = true;
      await this.store(final);
    }
    return result;
  }

  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    return this.inner.return ? this.inner.return() : Promise.resolve({ done: true, value: undefined });
  }
}

/** `body` with its chunks passed on as they come, except that the chunk after which `source.final` is set waits for `store`. */
export function holdUntilStored(
  body: AsyncIterable<Uint8Array>,
  source: FinishedResponseSource,
  store: (response: Record<string, unknown>) => Promise<void>,
): AsyncIterableIterator<Uint8Array, undefined> {
  return new HoldUntilStored(body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array, undefined>, source, store);
}
