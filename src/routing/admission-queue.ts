/**
 * The calls waiting for a place: first come, first served, at most
 * `limit` at once, each for at most `waitMs`; a waiter whose client leaves
 * is removed at once (its place in line, its timer, its listener).
 *
 * @internal
 */
import type { AbortSource } from '../signals/abort-source.js';

/** The errors a waiter is refused with, made when it is refused. */
export interface QueueRefusals {
  /** No place freed in time. */
  timedOut(): unknown;
  /** Its client left. */
  left(): unknown;
  /** The queue was emptied (shutdown). */
  stopped(): unknown;
}

interface Waiter {
  admit: () => void;
  refuse: (error: unknown) => void;
  refusals: QueueRefusals;
  timer: NodeJS.Timeout | undefined;
  signal: AbortSource;
  onAbort: () => void;
}

export class AdmissionQueue {
  /** Insertion-ordered: the first is the oldest; removal from anywhere is O(1). */
  private readonly waiters = new Set<Waiter>();

  constructor(
    private readonly limit: number,
    private readonly waitMs: number,
  ) {}

  get size(): number {
    return this.waiters.size;
  }

  /** Whether one more may wait. */
  get hasRoom(): boolean {
    return this.waitMs > 0 && this.waiters.size < this.limit;
  }

  /**
   * Waits until `next()` admits it (resolving with `take()`); refused after
   * `waitMs`, when `signal` aborts first, or by `refuseAll()`.
   */
  wait<T>(signal: AbortSource, take: () => T, refusals: QueueRefusals): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => resolve(take()),
        refuse: reject,
        refusals,
        timer: undefined,
        signal,
        onAbort: () => this.remove(waiter, refusals.left()),
      };
      waiter.timer = setTimeout(() => this.remove(waiter, refusals.timedOut()), this.waitMs);
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  /** Admits the oldest waiter; false when none waits. */
  next(): boolean {
    const first = this.waiters.values().next();
    if (first.done) return false;
    const waiter = first.value;
    this.forget(waiter);
    waiter.admit();
    return true;
  }

  /** Refuses every waiter (with its `stopped()` error). */
  refuseAll(): void {
    for (const waiter of [...this.waiters]) this.remove(waiter, waiter.refusals.stopped());
  }

  private remove(waiter: Waiter, error: unknown): void {
    if (!this.waiters.has(waiter)) return;
    this.forget(waiter);
    waiter.refuse(error);
  }

  private forget(waiter: Waiter): void {
    this.waiters.delete(waiter);
    clearTimeout(waiter.timer);
    waiter.signal.removeEventListener('abort', waiter.onAbort);
  }
}
