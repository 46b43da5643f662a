/**
 * A {@link LimitStore} wrapper that counts, per concurrency lease id, the
 * admitted reservations, the releases and the renewals that reach the store,
 * so tests can check that a lease is released exactly once and renewed
 * while its request runs.
 */
import type { LimitStore } from 'modelgate';

export interface CountingLimitStore extends LimitStore {
  /** Lease ids of admitted reservations, in order. */
  readonly admitted: string[];
  /** Reservations refused (no lease taken). */
  readonly refusals: number;
  /** Releases per lease id. */
  readonly released: Map<string, number>;
  /** Renewals per lease id. */
  readonly renewed: Map<string, number>;
}

const bump = (counts: Map<string, number>, id: string): void => void counts.set(id, (counts.get(id) ?? 0) + 1);

/** Wraps `inner`, counting what passes through it. */
export function countingLimitStore(inner: LimitStore): CountingLimitStore {
  const admitted: string[] = [];
  const released = new Map<string, number>();
  const renewed = new Map<string, number>();
  const store = {
    admitted,
    refusals: 0,
    released,
    renewed,
    async reserve(checks) {
      const result = await inner.reserve(checks);
      if (!result.ok) store.refusals++;
      else for (const check of checks) if (check.kind === 'concurrency') admitted.push(check.leaseId);
      return result;
    },
    settle(adjustments) {
      for (const adjustment of adjustments) if (adjustment.kind === 'concurrency') bump(released, adjustment.leaseId);
      return inner.settle(adjustments);
    },
    renew(leases) {
      for (const lease of leases) bump(renewed, lease.leaseId);
      return inner.renew ? inner.renew(leases) : Promise.resolve();
    },
  } satisfies CountingLimitStore & { refusals: number };
  return store;
}
