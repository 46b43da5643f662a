/**
 * An upstream whose every stream body the test drives and watches: what it
 * was asked to read, how much, and whether the gateway stopped it.
 */
import type { Upstream, UpstreamCall } from 'modelgate';

const encoder = new TextEncoder();

/**
 * An upstream body the test drives: `feed` hands the next read a chunk,
 * `endless` makes every read answer at once with that chunk (until
 * `endlessBytes` were read, then the body ends: a relay that ignored
 * backpressure would otherwise read without ever yielding to the event
 * loop). Counts reads and records `return()` (the gateway stopping it).
 */
export class ScriptedBody implements AsyncIterator<Uint8Array> {
  reads = 0;
  bytesRead = 0;
  returned = false;
  private readonly queued: Uint8Array[] = [];
  private waiting: ((result: IteratorResult<Uint8Array>) => void) | undefined;

  constructor(
    private readonly endless?: Uint8Array,
    private readonly endlessBytes = Number.POSITIVE_INFINITY,
  ) {}

  feed(text: string): void {
    const chunk = encoder.encode(text);
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      this.count(chunk);
      resolve({ done: false, value: chunk });
    } else this.queued.push(chunk);
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.returned || (this.endless !== undefined && this.bytesRead >= this.endlessBytes)) return Promise.resolve({ done: true, value: undefined });
    const chunk = this.endless ?? this.queued.shift();
    if (chunk !== undefined) {
      this.count(chunk);
      return Promise.resolve({ done: false, value: chunk });
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    this.returned = true;
    this.waiting?.({ done: true, value: undefined });
    this.waiting = undefined;
    return Promise.resolve({ done: true, value: undefined });
  }

  /**
   * Waits (up to `limitMs`) for a 100 ms window without reads, as when the
   * client's socket buffers and the stream's own are full; returns the read
   * count then.
   */
  async untilStalled(limitMs = 5000): Promise<number> {
    let previous = -1;
    for (let waited = 0; waited < limitMs && this.reads !== previous; waited += 100) {
      previous = this.reads;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return this.reads;
  }

  private count(chunk: Uint8Array): void {
    this.reads++;
    this.bytesRead += chunk.byteLength;
  }
}

/** A chat upstream that answers every call with a stream read from a new scripted body. */
export interface ScriptedUpstream extends Upstream {
  /** Each call's body, in call order. */
  bodies: ScriptedBody[];
  /** Each call, as the gateway made it. */
  calls: UpstreamCall[];
}

/** A {@link ScriptedUpstream} whose bodies `makeBody` creates. */
export function scriptedUpstream(makeBody: () => ScriptedBody): ScriptedUpstream {
  const bodies: ScriptedBody[] = [];
  const calls: UpstreamCall[] = [];
  return {
    name: 'scripted',
    format: 'chat',
    bodies,
    calls,
    async send(call) {
      const body = makeBody();
      bodies.push(body);
      calls.push(call);
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: { [Symbol.asyncIterator]: () => body } };
    },
  };
}
