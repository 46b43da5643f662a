/**
 * The outage policy around a store: bounded waits, fail-open on an
 * in-memory stand-in, fail-closed with a 503, one time-out per outage
 * window (not per request), and a reserve that lands after its time-out
 * undone in the store.
 */
import { isGatewayError, type LimitAdjustment, type LimitCheck, type LimitStore, type ReserveResult } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { guardStore } from '../../../src/limits/guarded-store.js';
import { resolveStoreErrorPolicy } from '../../../src/limits/store-error-policy.js';

const BUCKET: LimitCheck = { kind: 'bucket', key: 'b', capacity: 10, windowMs: 60_000, amount: 4 };
const LEASE = { kind: 'concurrency', key: 'c', limit: 2, leaseMs: 60_000, leaseId: 'lease-1' } as const;
const CHECKS: LimitCheck[] = [BUCKET, LEASE];
/** The kinds of limit of CHECKS (a plan's meters). */
const KINDS = [{ kind: 'requests' }, { kind: 'concurrent' }] as const;
const OPEN = resolveStoreErrorPolicy('open');
const CLOSED = resolveStoreErrorPolicy('closed');

/** A store whose reserve answers after `delayMs` (or never), recording settles. */
function slowStore(delayMs: number | 'never'): LimitStore & { reserves: number; settled: LimitAdjustment[][] } {
  const ok: ReserveResult = { ok: true, now: Date.now(), states: CHECKS.map(() => ({ remaining: 1, resetMs: 0, retryAfterMs: 0, period: 0 })) };
  const store = {
    reserves: 0,
    settled: [] as LimitAdjustment[][],
    reserve() {
      store.reserves++;
      return delayMs === 'never' ? new Promise<ReserveResult>(() => {}) : new Promise<ReserveResult>((resolve) => setTimeout(() => resolve(ok), delayMs));
    },
    async settle(adjustments: readonly LimitAdjustment[]) {
      store.settled.push([...adjustments]);
    },
  };
  return store;
}

describe('guardStore', () => {
  it("'closed' answers 503 within the time-out when the store does not answer", async () => {
    const guarded = guardStore(slowStore('never'), { policy: CLOSED, timeoutMs: 30, retryMs: 1000, bounded: true });
    const started = Date.now();
    const error = await guarded.reserve(CHECKS, KINDS).catch((thrown: unknown) => thrown);
    expect(isGatewayError(error) && error.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("'open' admits on the stand-in, then skips the store for retryMs", async () => {
    const store = slowStore('never');
    const failures: unknown[] = [];
    const guarded = guardStore(store, { policy: OPEN, timeoutMs: 30, retryMs: 60_000, bounded: true, onFailure: (error) => failures.push(error) });
    const first = await guarded.reserve(CHECKS, KINDS);
    expect(first.result.ok).toBe(true);
    expect(first.store).not.toBe(store);
    await guarded.reserve([BUCKET, { ...LEASE, leaseId: 'lease-2' }], KINDS);
    // The second request did not wait for the store: it was marked down.
    expect(store.reserves).toBe(1);
    expect(failures).toHaveLength(1);
    // The stand-in holds the limits per instance: a third concurrent lease is refused.
    expect((await guarded.reserve([{ ...LEASE, leaseId: 'lease-3' }], [{ kind: 'concurrent' }])).result.ok).toBe(false);
  });

  it('by default a budget fails closed (503, not a 429) while a request rate limit fails open', async () => {
    const budget: LimitCheck = { kind: 'budget', key: 's', limit: 5_000_000, periodMs: 86_400_000, amount: 10 };
    const guarded = guardStore(slowStore('never'), { policy: resolveStoreErrorPolicy(undefined), timeoutMs: 20, retryMs: 2500, bounded: true });
    const refused = await guarded.reserve([BUCKET, budget], [{ kind: 'requests' }, { kind: 'budget' }]).catch((thrown: unknown) => thrown);
    expect(isGatewayError(refused) && refused.status).toBe(503);
    expect(isGatewayError(refused) && refused.headers['retry-after']).toBe('3');
    expect(isGatewayError(refused) && refused.message).toMatch(/budget cannot be checked/);
    const admitted = await guarded.reserve([BUCKET], [{ kind: 'requests' }]);
    expect(admitted.result.ok).toBe(true);
  });

  it('a policy per kind: only the kinds set closed refuse', async () => {
    const guarded = guardStore(slowStore('never'), { policy: resolveStoreErrorPolicy({ concurrent: 'closed', budget: 'open' }), timeoutMs: 20, retryMs: 60_000, bounded: true });
    const refused = await guarded.reserve(CHECKS, KINDS).catch((thrown: unknown) => thrown);
    expect(isGatewayError(refused) && refused.status).toBe(503);
    expect(isGatewayError(refused) && refused.message).toMatch(/concurrency limit cannot be checked/);
    const budget: LimitCheck = { kind: 'budget', key: 's', limit: 5_000_000, periodMs: 86_400_000, amount: 10 };
    expect((await guarded.reserve([BUCKET, budget], [{ kind: 'requests' }, { kind: 'budget' }])).result.ok).toBe(true);
  });

  it('undoes a reservation that lands after its time-out', async () => {
    const store = slowStore(80);
    const guarded = guardStore(store, { policy: OPEN, timeoutMs: 20, retryMs: 10, bounded: true });
    await guarded.reserve(CHECKS, KINDS);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(store.settled).toEqual([[
      { kind: 'bucket', key: 'b', capacity: 10, windowMs: 60_000, delta: -4 },
      { kind: 'concurrency', key: 'c', leaseId: 'lease-1' },
    ]]);
  });

  it('sends a lost concurrency release again (not the token correction), so the slot is not held for the whole lease', async () => {
    const store = slowStore(0);
    let failures = 2;
    const settle = store.settle.bind(store);
    store.settle = async (adjustments) => {
      if (failures-- > 0) throw new Error('connection reset');
      await settle(adjustments);
    };
    const reported: unknown[] = [];
    const guarded = guardStore(store, { policy: OPEN, timeoutMs: 50, retryMs: 20, bounded: true, onFailure: (error) => reported.push(error) });
    const { store: target } = await guarded.reserve(CHECKS, KINDS);
    guarded.settle(target, [
      { kind: 'bucket', key: 'b', capacity: 10, windowMs: 60_000, delta: -4 },
      { kind: 'concurrency', key: 'c', leaseId: 'lease-1' },
    ]);
    const deadline = Date.now() + 5000;
    while (store.settled.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.settled).toEqual([[{ kind: 'concurrency', key: 'c', leaseId: 'lease-1' }]]);
    expect(reported).toHaveLength(2);
  });

  it('a store whose renew throws instead of rejecting is reported, not thrown (it runs from a timer)', async () => {
    const failures: unknown[] = [];
    const store: LimitStore = {
      ...slowStore(0),
      renew() {
        throw new Error('client is closed');
      },
    };
    for (const bounded of [true, false]) {
      const guarded = guardStore(store, { policy: OPEN, timeoutMs: 100, retryMs: 1000, bounded, onFailure: (error) => failures.push(error) });
      expect(() => guarded.renew(store, [{ key: 'c', leaseId: 'lease-1', leaseMs: 60_000 }])).not.toThrow();
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Reported by the bounded guard (the unbounded one is the built-in memory store's, which cannot fail).
    expect(failures).toHaveLength(1);
    expect((failures[0] as Error).message).toBe('client is closed');
  });
});
