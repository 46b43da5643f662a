/**
 * Keeps a route's figures (`TargetStats`) up to date during one model call:
 * each attempt counts as open on its target from its start until it fails,
 * or, for the attempt that answered, until the call is over (its answer
 * read whole or refused, its stream ended, its client gone), exactly once;
 * each response head is a time-to-first-byte sample.
 *
 * @internal
 */
import type { RequestDeadline } from '../signals/request-deadline.js';
import type { AttemptRecord } from './send-with-fallback.js';
import type { RouteTarget } from './route-types.js';
import type { TargetStats } from './target-stats.js';

/** The bookkeeping of one call's attempts. */
export class CallTracker {
  private open: RouteTarget | undefined;

  constructor(private readonly stats: TargetStats) {}

  /** An attempt on `target` starts (the previous one, if still counted, is over). */
  starting(target: RouteTarget): void {
    this.close();
    this.stats.opened(target);
    this.open = target;
  }

  /** An attempt ended with `record`: its head time is a sample; an attempt that got no response is over. */
  attempted(record: AttemptRecord): void {
    const target = this.open;
    if (target === undefined) return;
    if (record.error !== undefined || record.retryable) this.stats.failed(target, record.durationMs);
    else this.stats.answered(target, record.durationMs);
    if (record.error !== undefined) this.close();
  }

  /** The call failed: whatever attempt is counted is over. */
  failed(): void {
    this.close();
  }

  /** The call answered: its attempt stays counted until `deadline` is released, abandoned or aborted. */
  answered(deadline: RequestDeadline): RequestDeadline {
    return new TrackedDeadline(deadline, () => this.close());
  }

  private close(): void {
    const target = this.open;
    this.open = undefined;
    if (target !== undefined) this.stats.closed(target);
  }
}

/** A deadline that calls `done` once, when the call it bounds is over. */
class TrackedDeadline implements RequestDeadline {
  private done: (() => void) | undefined;

  constructor(
    private readonly inner: RequestDeadline,
    done: () => void,
  ) {
    this.done = done;
    // A backstop for a call that ends by abort (client gone, time-out) before its answer is taken.
    if (inner.source.aborted) this.finish();
    else inner.source.addEventListener('abort', this.finish, { once: true });
  }

  private readonly finish = (): void => {
    const done = this.done;
    this.done = undefined;
    this.inner.source.removeEventListener('abort', this.finish);
    done?.();
  };

  get signal(): AbortSignal {
    return this.inner.signal;
  }

  get source(): RequestDeadline['source'] {
    return this.inner.source;
  }

  get at(): number {
    return this.inner.at;
  }

  clear(): void {
    this.inner.clear();
  }

  release(): void {
    this.inner.release();
    this.finish();
  }

  abandon(): void {
    this.inner.abandon();
    this.finish();
  }

  cancel(reason: unknown): void {
    this.inner.cancel(reason);
    this.finish();
  }
}
