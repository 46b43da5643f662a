/**
 * The calls waiting for a place: at most `limit` at once, each for at most
 * `waitMs`; a waiter whose client leaves is removed at once (its place in
 * line, its timer, its listener). A freed place goes to the waiter whose
 * principal holds the fewest places (the oldest among equals), skipping
 * those whose principal is at its share. It counts each principal's
 * waiters, so that admission can bound them.
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

/** How the queue sees the places taken: per principal, and who may take one more. */
export interface PlacesHeld {
  /** Places the principal holds now. */
  heldBy(principal: string): number;
  /** Whether the principal is under its share. */
  mayTake(principal: string): boolean;
}

interface Waiter {
  principal: string;
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
  /** Waiters per principal; principals with none are not kept. Every way out of the queue passes `forget`, which counts down. */
  private readonly waitingPer = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly waitMs: number,
  ) {}

  get size(): number {
    return this.waiters.size;
  }

  /** Calls of `principal` waiting now. */
  waitingBy(principal: string): number {
    return this.waitingPer.get(principal) ?? 0;
  }

  /** Whether one more may wait. */
  get hasRoom(): boolean {
    return this.waitMs > 0 && this.waiters.size < this.limit;
  }

  /**
   * Waits until `next()` admits it (resolving with `take()`); refused after
   * `waitMs`, when `signal` aborts first, or by `refuseAll()`.
   */
  wait<T>(principal: string, signal: AbortSource, take: () => T, refusals: QueueRefusals): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        principal,
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
      this.waitingPer.set(principal, this.waitingBy(principal) + 1);
    });
  }

  /**
   * Admits the waiter whose principal holds the fewest places among those
   * that may take one (the oldest among equals); false when none may. One
   * pass over the queue, which `limit` bounds.
   */
  next(places: PlacesHeld): boolean {
    let chosen: Waiter | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const waiter of this.waiters) {
      const held = places.heldBy(waiter.principal);
      // Strictly fewer: among equals the first seen, the oldest, stays chosen.
      if (held < fewest && places.mayTake(waiter.principal)) {
        chosen = waiter;
        fewest = held;
        if (held === 0) break;
      }
    }
    if (chosen === undefined) return false;
    this.forget(chosen);
    chosen.admit();
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
    const left = this.waitingBy(waiter.principal) - 1;
    if (left > 0) this.waitingPer.set(waiter.principal, left);
    else this.waitingPer.delete(waiter.principal);
    clearTimeout(waiter.timer);
    waiter.signal.removeEventListener('abort', waiter.onAbort);
  }
}
