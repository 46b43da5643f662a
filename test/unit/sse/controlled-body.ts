/**
 * A test upstream body driven by hand: push chunks, end, fail; records how
 * far it was read and whether it was destroyed.
 */
export class ControlledBody implements AsyncIterable<Uint8Array> {
  private readonly chunks: Array<Uint8Array | Error | null> = [];
  private waiter: ((item: Uint8Array | Error | null) => void) | undefined;
  /** How many chunks were handed out. */
  pulls = 0;
  destroyedAt: number | undefined;

  push(text: string): void {
    this.deliver(new TextEncoder().encode(text));
  }

  end(): void {
    this.deliver(null);
  }

  fail(error: Error): void {
    this.deliver(error);
  }

  destroy(): void {
    this.destroyedAt ??= performance.now();
    this.deliver(new Error('destroyed'));
  }

  private deliver(item: Uint8Array | Error | null): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(item);
    else this.chunks.push(item);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    for (;;) {
      const item = this.chunks.length > 0 ? this.chunks.shift() : await new Promise<Uint8Array | Error | null>((resolve) => (this.waiter = resolve));
      if (item === null || item === undefined) return;
      if (item instanceof Error) throw item;
      this.pulls++;
      yield item;
    }
  }
}
