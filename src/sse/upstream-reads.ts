/**
 * The relay's reads of the upstream body, each raced against the stream's
 * heartbeat timer and a client abort: one read in flight at most, one timer
 * per stream (re-armed with `refresh()`, not a new timer per read).
 *
 * Callback-driven: a wait ends by one call of `onWake`, and the handlers on
 * the body's reads are made once per stream, so a relayed event costs the
 * read's own promise and no other (a promise per wait, with its closures,
 * was most of a trickling stream's garbage per event).
 */

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

export class UpstreamReads {
  /** The read in flight; a read interrupted by a heartbeat is awaited again, never doubled. */
  private pending: Promise<IteratorResult<Uint8Array>> | undefined;
  /** The read in flight was handed to `read()`: its outcome is that caller's, not a wake. */
  private handedOff = false;
  /** A read that settled while nobody waited (after a heartbeat), for the next wait. */
  private unclaimed: Wake | undefined;
  private waiting = false;
  private timer: NodeJS.Timeout | undefined;

  /** `heartbeatMs` 0 disables heartbeats; `onWake` ends each wait (called at most once per `wait()`). */
  constructor(
    private readonly reader: AsyncIterator<Uint8Array>,
    private readonly heartbeatMs: number,
    private readonly onWake: (wake: Wake) => void,
  ) {}

  /**
   * Waits for the next read, `heartbeatMs` of silence, or `abort()`,
   * whichever comes first; `onWake` is called from a later turn (or from
   * `abort()`). A throwing `reader.next()` throws here.
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
    if (this.pending !== undefined) return;
    const read = this.reader.next();
    this.pending = read;
    read.then(this.onRead, this.onReadFailure);
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
    const read = this.pending;
    if (read === undefined) return this.reader.next();
    this.pending = undefined;
    this.handedOff = true;
    return read;
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
    this.reader.return?.(undefined).catch(noop);
    this.pending?.catch(noop);
  }

  private readonly onRead = (result: IteratorResult<Uint8Array>): void => {
    this.settle(result.done ? END : { kind: 'chunk', chunk: result.value });
  };

  private readonly onReadFailure = (error: unknown): void => {
    this.settle({ kind: 'failure', error });
  };

  /** The read in flight settled: it ends the wait, or waits for the next one (a heartbeat ended the last). */
  private settle(wake: Wake): void {
    this.pending = undefined;
    if (this.handedOff) {
      this.handedOff = false;
      return;
    }
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
