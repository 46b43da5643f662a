/**
 * The relay's reads of the upstream body, each raced against the stream's
 * heartbeat timer and a client abort: one read in flight at most, one timer
 * per stream (re-armed with `refresh()`, not a new timer per read).
 *
 * Callback-driven: a wait ends by one call of `onWake`, and each read hands
 * its outcome to this object itself (`ChunkReader.request`). A body of the
 * built-in HTTP upstreams does so without any promise; any other body is
 * adapted, one `next()` promise per read. (A promise per wait and per read,
 * with their closures, was most of a trickling stream's garbage per event.)
 */
import { type ChunkReader, type ChunkWaiter, chunkReaderOf } from '../upstreams/read-chunks.js';

/** Why a wait ended. */
export type Wake =
  | { kind: 'chunk'; chunk: Uint8Array }
  | { kind: 'end' }
  | { kind: 'failure'; error: unknown }
  | { kind: 'heartbeat' }
  | { kind: 'abort' };

const HEARTBEAT: Wake = { kind: 'heartbeat' };
const END: Wake = { kind: 'end' };
const ABORT: Wake = { kind: 'abort' };
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
const noop = (): void => {};

export class UpstreamReads implements ChunkWaiter {
  /** A read is in flight; a read interrupted by a heartbeat is awaited again, never doubled. */
  private inFlight = false;
  /** The read in flight was handed to `read()`: its outcome goes there, not to a wake. */
  private handOff: ChunkWaiter | undefined;
  /** A read that settled while nobody waited (after a heartbeat), for the next wait. */
  private unclaimed: Wake | undefined;
  private waiting = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly reader: ChunkReader;

  /** `heartbeatMs` 0 disables heartbeats; `onWake` ends each wait (called at most once per `wait()`). */
  constructor(
    body: AsyncIterator<Uint8Array>,
    private readonly heartbeatMs: number,
    private readonly onWake: (wake: Wake) => void,
  ) {
    this.reader = chunkReaderOf(body);
  }

  /**
   * Waits for the next read, `heartbeatMs` of silence, or `abort()`,
   * whichever comes first; `onWake` is called from a later turn, from the
   * body's own `data` event, or from `abort()`. A body whose `next()` throws
   * throws here.
   */
  wait(): void {
    this.waiting = true;
    if (this.heartbeatMs > 0) {
      if (this.timer === undefined) this.timer = setTimeout(this.onHeartbeat, this.heartbeatMs);
      else this.timer.refresh();
    }
    if (this.unclaimed !== undefined) {
      queueMicrotask(this.deliverUnclaimed);
      return;
    }
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      this.reader.request(this);
    } catch (error) {
      this.inFlight = false;
      throw error;
    }
  }

  /** The next read without racing (draining after the end or an abort); takes over one in flight or unclaimed. */
  read(): Promise<IteratorResult<Uint8Array>> {
    const unclaimed = this.unclaimed;
    if (unclaimed !== undefined) {
      this.unclaimed = undefined;
      if (unclaimed.kind === 'chunk') return Promise.resolve({ done: false, value: unclaimed.chunk });
      if (unclaimed.kind === 'failure') return Promise.reject(unclaimed.error);
      return Promise.resolve(DONE);
    }
    if (!this.inFlight) return this.reader.next();
    return new Promise((resolve, reject) => {
      this.handOff = { resolve, reject };
    });
  }

  /** Ends a pending wait with `abort` (at once) and stops the heartbeat. */
  abort(): void {
    this.stopHeartbeat();
    if (!this.waiting) return;
    this.waiting = false;
    this.onWake(ABORT);
  }

  stopHeartbeat(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Tells the body's iterator to stop (reaches it when paused between reads); never throws. */
  release(): void {
    try {
      void Promise.resolve(this.reader.return?.(undefined)).catch(noop);
    } catch {
      // A body whose return() throws is left to its own end.
    }
  }

  /** `ChunkWaiter`: the read in flight gave a chunk or the end. */
  resolve(result: IteratorResult<Uint8Array, undefined>): void {
    const handOff = this.settled();
    if (handOff !== undefined) handOff.resolve(result);
    else this.deliver(result.done ? END : { kind: 'chunk', chunk: result.value });
  }

  /** `ChunkWaiter`: the read in flight failed. */
  reject(error: unknown): void {
    const handOff = this.settled();
    if (handOff !== undefined) handOff.reject(error);
    else this.deliver({ kind: 'failure', error });
  }

  /** The read in flight is over; returns who took it over, if anyone. */
  private settled(): ChunkWaiter | undefined {
    this.inFlight = false;
    const handOff = this.handOff;
    this.handOff = undefined;
    return handOff;
  }

  /** Ends the wait with `wake`, or keeps it for the next wait (a heartbeat ended the last one). */
  private deliver(wake: Wake): void {
    if (!this.waiting) {
      this.unclaimed = wake;
      return;
    }
    this.waiting = false;
    this.onWake(wake);
  }

  private readonly deliverUnclaimed = (): void => {
    const wake = this.unclaimed;
    if (wake === undefined || !this.waiting) return;
    this.unclaimed = undefined;
    this.waiting = false;
    this.onWake(wake);
  };

  /** Timer callback: wakes a wait on a silent upstream; a tick while the client is busy is dropped. */
  private readonly onHeartbeat = (): void => {
    if (!this.waiting) return;
    this.waiting = false;
    this.onWake(HEARTBEAT);
  };
}
