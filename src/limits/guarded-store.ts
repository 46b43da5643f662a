/**
 * Puts a time bound on every store command and applies the outage policy
 * of the request's kinds of limit: all `'open'` answers from an in-memory
 * stand-in, any `'closed'` fails with a 503.
 * After a failure the store is left alone for `retryMs` (requests go
 * straight to the policy), so an outage costs one time-out, not one per
 * request.
 *
 * @internal
 */
import type { LeaseRenewal, LimitAdjustment, LimitCheck, LimitStore, ReserveResult } from './limit-store.js';
import type { LimitKind } from './limit-options.js';
import { isSyncStore, memoryLimitStore } from './memory-limit-store.js';
import { closedKinds, type ResolvedStoreErrorPolicy, storeUnavailable } from './store-error-policy.js';

export interface GuardedStoreOptions {
  policy: ResolvedStoreErrorPolicy;
  timeoutMs: number;
  retryMs: number;
  onFailure?: ((error: unknown) => void) | undefined;
  /** False for the built-in memory store: it cannot fail or stall, so no timer is set (and it answers synchronously). */
  bounded: boolean;
}

/** A reservation and the store that holds it (settled in the same one). */
export interface Reservation {
  result: ReserveResult;
  store: LimitStore;
}

/** The kind of limit of each check, in order (a plan's meters). */
export type CheckKinds = readonly { kind: LimitKind }[];

export interface GuardedStore {
  /** Reserves in the store; when it fails, `kinds` (one per check) decide between the stand-in and a 503. */
  reserve(checks: readonly LimitCheck[], kinds: CheckKinds): Promise<Reservation>;
  /** The reservation at once when the store answers synchronously (the unbounded in-memory one), else undefined. */
  reserveNow(checks: readonly LimitCheck[]): Reservation | undefined;
  settle(store: LimitStore, adjustments: readonly LimitAdjustment[]): void;
  /** Extends leases of running requests in the store that holds them (a store without `renew` is skipped). */
  renew(store: LimitStore, leases: readonly LeaseRenewal[]): void;
}

/** Rejects when `promise` takes longer than `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`limit store did not answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** What undoes a reservation: used when a timed-out reserve still lands in the store later. */
function refund(checks: readonly LimitCheck[], result: ReserveResult): LimitAdjustment[] {
  return checks.map((check, index): LimitAdjustment => {
    switch (check.kind) {
      case 'bucket':
        return { kind: 'bucket', key: check.key, capacity: check.capacity, windowMs: check.windowMs, delta: -check.amount };
      case 'concurrency':
        return { kind: 'concurrency', key: check.key, leaseId: check.leaseId };
      case 'budget':
        return { kind: 'budget', key: check.key, periodMs: check.periodMs, period: result.states[index]?.period ?? 0, delta: -check.amount };
    }
  });
}

/** Tries, in all, to release a concurrency slot whose release failed (see `retryReleases`). */
const RELEASE_ATTEMPTS = 5;

export function guardStore(store: LimitStore, options: GuardedStoreOptions): GuardedStore {
  const standIn = memoryLimitStore();
  // Found once, not per request: the store that answers at once (the unbounded in-memory one).
  const sync = !options.bounded && isSyncStore(store) ? store : undefined;
  let downUntil = 0;

  const report = (error: unknown): void => {
    downUntil = Date.now() + options.retryMs;
    try {
      options.onFailure?.(error);
    } catch {
      // A failing logger must not change the answer.
    }
  };

  const fallback = async (checks: readonly LimitCheck[], kinds: CheckKinds, cause: unknown): Promise<Reservation> => {
    const closed = closedKinds(kinds, options.policy);
    if (closed.length > 0) throw storeUnavailable(closed, options.retryMs, cause);
    return { result: await standIn.reserve(checks), store: standIn };
  };

  /**
   * A concurrency slot whose release was lost would stay taken until its
   * lease expires (`concurrencyLeaseSeconds`): the release is sent again
   * every `retryMs`, up to {@link RELEASE_ATTEMPTS} times in all.
   */
  const retryReleases = (target: LimitStore, adjustments: readonly LimitAdjustment[], attempt: number): void => {
    const releases = adjustments.filter((adjustment) => adjustment.kind === 'concurrency');
    if (releases.length === 0 || attempt >= RELEASE_ATTEMPTS) return;
    setTimeout(() => {
      withTimeout(target.settle(releases), options.timeoutMs).catch((error: unknown) => {
        report(error);
        retryReleases(target, releases, attempt + 1);
      });
    }, options.retryMs).unref();
  };

  const reserveBounded = async (checks: readonly LimitCheck[], kinds: CheckKinds): Promise<Reservation> => {
    if (store === standIn || Date.now() < downUntil) return fallback(checks, kinds, new Error('limit store marked down after a failure'));
    const pending = store.reserve(checks);
    try {
      return { result: await withTimeout(pending, options.timeoutMs), store };
    } catch (error) {
      report(error);
      // A reserve that lands after its time-out (a client's offline queue replaying it) is undone:
      // this request was answered by the policy, not by that reservation.
      pending.then((late) => (late.ok ? store.settle(refund(checks, late)) : undefined)).catch(() => {});
      return fallback(checks, kinds, error);
    }
  };

  return {
    reserve(checks, kinds) {
      if (options.bounded) return reserveBounded(checks, kinds);
      return store.reserve(checks).then((result) => ({ result, store }));
    },
    reserveNow(checks) {
      return sync === undefined ? undefined : { result: sync.reserveNow(checks), store: sync };
    },
    settle(target, adjustments) {
      if (adjustments.length === 0) return;
      if (target === sync) {
        sync.settleNow(adjustments);
        return;
      }
      if (!options.bounded || target === standIn) {
        if (isSyncStore(target)) target.settleNow(adjustments);
        else void target.settle(adjustments);
        return;
      }
      // Settling is off the response path; a failed one leaves counters that expire on their own,
      // and its concurrency releases (idempotent, unlike corrections) are tried again.
      withTimeout(target.settle(adjustments), options.timeoutMs).catch((error: unknown) => {
        report(error);
        retryReleases(target, adjustments, 1);
      });
    },
    renew(target, leases) {
      if (leases.length === 0 || target.renew === undefined) return;
      // Called from a timer: a store that throws instead of rejecting must not become an uncaught exception.
      const renewing = new Promise<void>((resolve) => resolve(target.renew!(leases)));
      if (!options.bounded || target === standIn) {
        renewing.catch(() => {});
        return;
      }
      // A failed renewal is tried again at the next one (a third of the lease later).
      withTimeout(renewing, options.timeoutMs).catch(report);
    },
  };
}
