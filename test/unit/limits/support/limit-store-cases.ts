/**
 * The store semantics (limit-store.ts) every store must have, run on the
 * in-memory store (limit-stores.test.ts) and on a real Redis through both
 * supported clients (limit-stores.redis.test.ts). Windows are long (a day
 * or more) where refill would otherwise move the figures while the test runs.
 */
import type { LimitStore } from 'modelgate';
import { describe, expect, it } from 'vitest';

const DAY = 86_400_000;

/** The store semantics on one store, made afresh (with its own keys) by each call of `make`. */
export function describeStoreSemantics(name: string, make: () => LimitStore): void {
  describe(`${name} store`, () => {
    it('a bucket admits while the amount fits and refuses without taking when it does not', async () => {
      const store = make();
      const bucket = { kind: 'bucket' as const, key: 'a', capacity: 10, windowMs: 1000 * DAY };
      const first = await store.reserve([{ ...bucket, amount: 4 }]);
      expect(first.ok).toBe(true);
      expect(first.states[0]!.remaining).toBe(6);
      expect((await store.reserve([{ ...bucket, amount: 4 }])).states[0]!.remaining).toBe(2);
      const refused = await store.reserve([{ ...bucket, amount: 4 }]);
      expect(refused.ok).toBe(false);
      // 2 missing tokens at 10 per 1000 days: 200 days.
      expect(refused.states[0]!.retryAfterMs).toBeGreaterThan(199 * DAY);
      expect(refused.states[0]!.retryAfterMs).toBeLessThanOrEqual(200 * DAY);
      expect(refused.states[0]!.remaining).toBe(2);
      // More than the capacity can never fit.
      expect((await store.reserve([{ ...bucket, amount: 11 }])).states[0]!.retryAfterMs).toBe(-1);
    });

    it('all checks admit or none takes anything', async () => {
      const store = make();
      const small = { kind: 'bucket' as const, key: 'small', capacity: 1, windowMs: DAY, amount: 1 };
      const big = { kind: 'bucket' as const, key: 'big', capacity: 100, windowMs: DAY, amount: 10 };
      expect((await store.reserve([small])).ok).toBe(true);
      const refused = await store.reserve([big, small]);
      expect(refused.ok).toBe(false);
      expect(refused.states[0]!.retryAfterMs).toBe(0);
      // `big` was not charged for the refused request.
      expect((await store.reserve([{ ...big, amount: 0 }])).states[0]!.remaining).toBe(100);
    });

    it('settle corrects a bucket both ways, capped at the capacity', async () => {
      const store = make();
      const bucket = { kind: 'bucket' as const, key: 'tokens', capacity: 1000, windowMs: 1000 * DAY };
      await store.reserve([{ ...bucket, amount: 800 }]);
      await store.settle([{ ...bucket, delta: -500 }]);
      expect((await store.reserve([{ ...bucket, amount: 0 }])).states[0]!.remaining).toBe(700);
      await store.settle([{ ...bucket, delta: 900 }]);
      const inDebt = await store.reserve([{ ...bucket, amount: 1 }]);
      expect(inDebt.ok).toBe(false);
      expect(inDebt.states[0]!.remaining).toBe(0);
      await store.settle([{ ...bucket, delta: -5000 }]);
      expect((await store.reserve([{ ...bucket, amount: 0 }])).states[0]!.remaining).toBe(1000);
    });

    it('concurrency leases are counted and released', async () => {
      const store = make();
      const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: 'cc', limit: 2, leaseMs: DAY, leaseId });
      expect((await store.reserve([lease('a')])).states[0]!.remaining).toBe(1);
      expect((await store.reserve([lease('b')])).ok).toBe(true);
      const refused = await store.reserve([lease('c')]);
      expect(refused.ok).toBe(false);
      expect(refused.states[0]!.retryAfterMs).toBeGreaterThan(0);
      await store.settle([{ kind: 'concurrency', key: 'cc', leaseId: 'a' }]);
      expect((await store.reserve([lease('c')])).ok).toBe(true);
    });

    it('renew keeps a running lease counted while released and unknown leases stay gone', async () => {
      const store = make();
      const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: 'rn', limit: 2, leaseMs: DAY, leaseId });
      expect((await store.reserve([lease('long')])).ok).toBe(true);
      expect((await store.reserve([lease('short')])).ok).toBe(true);
      await store.settle([{ kind: 'concurrency', key: 'rn', leaseId: 'short' }]);
      await store.renew!([{ key: 'rn', leaseId: 'long', leaseMs: DAY }, { key: 'rn', leaseId: 'short', leaseMs: DAY }, { key: 'rn', leaseId: 'ghost', leaseMs: DAY }]);
      // Only 'long' counts: one slot left, then none.
      const one = await store.reserve([lease('probe')]);
      expect(one.ok).toBe(true);
      expect(one.states[0]!.remaining).toBe(0);
      expect((await store.reserve([lease('more')])).ok).toBe(false);
    });

    it('a budget admits up to its limit in the period and waits for the next one', async () => {
      const store = make();
      const budget = { kind: 'budget' as const, key: 'sp', limit: 100, periodMs: 7 * DAY };
      const first = await store.reserve([{ ...budget, amount: 60 }]);
      expect(first.ok).toBe(true);
      expect(first.states[0]!.remaining).toBe(40);
      const refused = await store.reserve([{ ...budget, amount: 50 }]);
      expect(refused.ok).toBe(false);
      const periodEnd = (Math.floor(refused.now / budget.periodMs) + 1) * budget.periodMs;
      expect(refused.states[0]!.retryAfterMs).toBe(periodEnd - refused.now);
      await store.settle([{ kind: 'budget', key: 'sp', periodMs: budget.periodMs, period: first.states[0]!.period, delta: -30 }]);
      expect((await store.reserve([{ ...budget, amount: 50 }])).ok).toBe(true);
    });

    it('admits exactly the capacity under 200 concurrent reservations', async () => {
      const store = make();
      const check = { kind: 'bucket' as const, key: 'race', capacity: 37, windowMs: 1000 * DAY, amount: 1 };
      const results = await Promise.all(Array.from({ length: 200 }, () => store.reserve([check])));
      expect(results.filter((result) => result.ok)).toHaveLength(37);
    });
  });
}
