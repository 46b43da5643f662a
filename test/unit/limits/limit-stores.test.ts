/**
 * The store semantics (support/limit-store-cases.ts) on the in-memory store,
 * and its fake-clock cases (on Redis: limit-stores.redis.test.ts).
 */
import { memoryLimitStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { describeStoreSemantics } from './support/limit-store-cases.js';

describeStoreSemantics('memory', () => memoryLimitStore());

describe('memory store with a clock', () => {
  it('refills continuously and reports the time until full', async () => {
    let now = 1_000_000;
    const store = memoryLimitStore({ now: () => now });
    const bucket = { kind: 'bucket' as const, key: 'a', capacity: 60, windowMs: 60_000 };
    const taken = await store.reserve([{ ...bucket, amount: 60 }]);
    expect(taken.states[0]).toMatchObject({ remaining: 0, resetMs: 60_000 });
    expect((await store.reserve([{ ...bucket, amount: 3 }])).states[0]!.retryAfterMs).toBe(3000);
    now += 3000;
    expect((await store.reserve([{ ...bucket, amount: 3 }])).ok).toBe(true);
  });

  it('forgets concurrency leases after their time', async () => {
    let now = 0;
    const store = memoryLimitStore({ now: () => now });
    const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: 'cc', limit: 1, leaseMs: 10_000, leaseId });
    expect((await store.reserve([lease('a')])).ok).toBe(true);
    expect((await store.reserve([lease('b')])).ok).toBe(false);
    now += 10_001;
    expect((await store.reserve([lease('b')])).ok).toBe(true);
  });

  it('counts only unexpired leases when their lease times differ (a long one opened first)', async () => {
    let now = 0;
    const store = memoryLimitStore({ now: () => now });
    const lease = (leaseId: string, leaseMs: number) => ({ kind: 'concurrency' as const, key: 'cc', limit: 2, leaseMs, leaseId });
    expect((await store.reserve([lease('long', 60_000)])).ok).toBe(true);
    expect((await store.reserve([lease('short', 1000)])).ok).toBe(true);
    expect((await store.reserve([lease('x', 1000)])).ok).toBe(false);
    // 'short' is gone, 'long' (older, still open) is not: one slot is free, and only one.
    now += 1001;
    const admitted = await store.reserve([lease('y', 1000)]);
    expect(admitted.ok).toBe(true);
    expect(admitted.states[0]!.remaining).toBe(0);
    expect((await store.reserve([lease('z', 1000)])).ok).toBe(false);
    // A released lease frees its slot at once.
    await store.settle([{ kind: 'concurrency', key: 'cc', leaseId: 'long' }]);
    expect((await store.reserve([lease('z', 1000)])).ok).toBe(true);
  });

  it('stops counting each lease as soon as it expires, below the limit too (one lease time: remaining exact)', async () => {
    let now = 0;
    const store = memoryLimitStore({ now: () => now });
    const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: 'cc', limit: 3, leaseMs: 1000, leaseId });
    expect((await store.reserve([lease('a')])).states[0]!.remaining).toBe(2);
    now = 500;
    expect((await store.reserve([lease('b')])).states[0]!.remaining).toBe(1);
    now = 1001; // a expired, b open: b and c count
    expect((await store.reserve([lease('c')])).states[0]!.remaining).toBe(1);
    now = 1501; // b expired too: c and d count
    expect((await store.reserve([lease('d')])).states[0]!.remaining).toBe(1);
    now = 2600; // c and d expired too
    expect((await store.reserve([lease('e')])).states[0]!.remaining).toBe(2);
  });

  it('counts exactly after a release when lease times differ (a shorter lease added after a longer one)', async () => {
    let now = 0;
    const store = memoryLimitStore({ now: () => now });
    const lease = (leaseId: string, leaseMs: number) => ({ kind: 'concurrency' as const, key: 'cc', limit: 3, leaseMs, leaseId });
    expect((await store.reserve([lease('a', 1000)])).ok).toBe(true);
    expect((await store.reserve([lease('b', 100)])).ok).toBe(true);
    now = 150; // b expired (behind a in insertion order)
    expect((await store.reserve([lease('c', 1000)])).ok).toBe(true);
    await store.settle([{ kind: 'concurrency', key: 'cc', leaseId: 'a' }]);
    now = 200; // only c and d open
    expect((await store.reserve([lease('d', 1000)])).states[0]!.remaining).toBe(1);
  });

  it('renewed leases keep counting and expire at their new time, with the lease-walk shortcut in play', async () => {
    let now = 0;
    const store = memoryLimitStore({ now: () => now });
    const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: 'cc', limit: 3, leaseMs: 1000, leaseId });
    const renew = (leaseId: string) => store.renew!([{ key: 'cc', leaseId, leaseMs: 1000 }]);
    await store.reserve([lease('a')]);
    now = 100;
    await store.reserve([lease('b')]);
    now = 900;
    await renew('a'); // a until 1900, b until 1100
    now = 1050;
    expect((await store.reserve([lease('c')])).states[0]!.remaining).toBe(0); // a, b, c
    now = 1101; // b expired; a (renewed) and c open
    expect((await store.reserve([lease('d')])).states[0]!.remaining).toBe(0); // a, c, d
    now = 1901; // a expired at its renewed time
    const after = await store.reserve([lease('e')]);
    expect(after.states[0]!.remaining).toBe(0); // c (until 2050), d (until 2101), e
    now = 2060; // c expired
    expect((await store.reserve([lease('f')])).states[0]!.remaining).toBe(0); // d, e, f
    // Renewing at or after its expiry does nothing.
    now = 2101;
    await renew('d');
    expect((await store.reserve([lease('g')])).states[0]!.remaining).toBe(0); // e, f, g
  });

  it('keeps refilling a bucket that is updated in place, request after request', async () => {
    let now = 0;
    const store = memoryLimitStore({ now: () => now });
    const bucket = { kind: 'bucket' as const, key: 'rq', capacity: 10, windowMs: 10_000, amount: 1 };
    for (let i = 0; i < 10; i++) expect((await store.reserve([bucket])).ok).toBe(true);
    expect((await store.reserve([bucket])).states[0]!.retryAfterMs).toBe(1000);
    now += 2500;
    // 2.5 tokens back: two requests fit, the third waits 500 ms.
    expect((await store.reserve([bucket])).ok).toBe(true);
    expect((await store.reserve([bucket])).ok).toBe(true);
    expect((await store.reserve([bucket])).states[0]!.retryAfterMs).toBe(500);
    await store.settle([{ kind: 'bucket', key: 'rq', capacity: 10, windowMs: 10_000, delta: -2 }]);
    expect((await store.reserve([bucket])).states[0]).toMatchObject({ remaining: 1, retryAfterMs: 0 });
  });
});
