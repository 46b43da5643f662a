/**
 * The relay's reads of the upstream body, each raced against the stream's
 * heartbeat timer and a client abort: one read in flight at most, one timer
 * per stream (re-armed with `refresh()`, not a new timer per read).
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
const noop = (): void => {};

export class UpstreamReads {
  /** The read in flight; a read interrupted by a heartbeat is awaited again, never doubled. */
  private pending: Promise<IteratorResult<Uint8Array>> | undefined;
  private waiter: ((wake: Wake) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** `heartbeatMs` 0 disables heartbeats. */
  constructor(
    private readonly reader: AsyncIterator<Uint8Array>,
    private readonly heartbeatMs: number,
  ) {}

  /** Waits for the next read, `heartbeatMs` of silence, or `abort()`, whichever comes first. */
  wait(): Promise<Wake> {
    const pending = (this.pending ??= this.reader.next());
    return new Promise<Wake>((resolve) => {
      this.waiter = resolve;
      if (this.heartbeatMs > 0) {
        if (this.timer === undefined) this.timer = setTimeout(this.onHeartbeat, this.heartbeatMs);
        else this.timer.refresh();
      }
      pending.then(
        (result) => this.settle(resolve, result.done ? END : { kind: 'chunk', chunk: result.value }),
        (error: unknown) => this.settle(resolve, { kind: 'failure', error }),
      );
    });
  }

  /** The next read without racing (draining after the end or an abort); reuses one in flight. */
  read(): Promise<IteratorResult<Uint8Array>> {
    const read = this.pending ?? this.reader.next();
    this.pending = undefined;
    return read;
  }

  /** Ends a pending wait with `abort` and stops the heartbeat. */
  abort(): void {
    this.stopHeartbeat();
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(ABORT);
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

  /** A read settled: it wakes the wait that is still current; an earlier one was already woken by a heartbeat. */
  private settle(resolve: (wake: Wake) => void, wake: Wake): void {
    if (this.waiter !== resolve) return;
    this.waiter = undefined;
    this.pending = undefined;
    resolve(wake);
  }

  /** Timer callback: wakes a wait on a silent upstream; a tick while the client is busy is dropped. */
  private readonly onHeartbeat = (): void => {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(HEARTBEAT);
  };
}
