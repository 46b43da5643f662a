/**
 * The store semantics (limit-store.ts) on the in-memory store and on a real
 * Redis through both supported clients (ioredis, node-redis). Windows are
 * long (a day or more) where refill would otherwise move the figures while
 * the test runs; the fake-clock cases run on the memory store only.
 */
import { type LimitStore, memoryLimitStore, redisLimitStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { useRedisClients } from '../../helpers/redis-clients.js';

const DAY = 86_400_000;
const redis = useRedisClients();
let run = 0;

const stores: Array<[string, () => LimitStore]> = [
  ['memory', () => memoryLimitStore()],
  ['redis via ioredis', () => redisLimitStore({ client: redis.io, prefix: `t${++run}:` })],
  ['redis via node-redis', () => redisLimitStore({ client: redis.node, prefix: `t${++run}:` })],
];

describe.each(stores)('%s store', (_name, make) => {
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

describe('redis store', () => {
  it('renew moves an unexpired lease (and its set) to leaseMs from now; an expired one stays expired', async () => {
    const store = redisLimitStore({ client: redis.io, prefix: 'renew:' });
    const taken = await store.reserve([
      { kind: 'concurrency', key: '{p}:c', limit: 5, leaseMs: 2000, leaseId: 'live' },
    ]);
    await store.reserve([{ kind: 'concurrency', key: '{p}:c', limit: 5, leaseMs: 50, leaseId: 'brief' }]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const briefBefore = await redis.io.zscore('renew:{p}:c', 'brief');
    await store.renew!([
      { key: '{p}:c', leaseId: 'live', leaseMs: 3_600_000 },
      { key: '{p}:c', leaseId: 'brief', leaseMs: 3_600_000 },
      { key: '{p}:c', leaseId: 'ghost', leaseMs: 3_600_000 },
    ]);
    const [seconds] = await redis.io.time();
    const live = Number(await redis.io.zscore('renew:{p}:c', 'live'));
    // Now (Redis's clock) + one hour, not the 2 s it was taken with.
    expect(live).toBeGreaterThan(taken.now + 3_500_000);
    expect(Math.abs(live - (Number(seconds) * 1000 + 3_600_000))).toBeLessThan(5000);
    expect(await redis.io.zscore('renew:{p}:c', 'brief')).toBe(briefBefore);
    expect(await redis.io.zscore('renew:{p}:c', 'ghost')).toBeNull();
    // The set lives as long as its latest lease.
    expect(await redis.io.pttl('renew:{p}:c')).toBeGreaterThan(3_500_000);
  });

  it('takes the time from Redis and leaves keys that expire', async () => {
    const store = redisLimitStore({ client: redis.io, prefix: 'ttl:' });
    const result = await store.reserve([
      { kind: 'bucket', key: 'b', capacity: 10, windowMs: 60_000, amount: 5 },
      { kind: 'concurrency', key: 'c', limit: 1, leaseMs: 30_000, leaseId: 'x' },
    ]);
    const [seconds] = await redis.io.time();
    expect(Math.abs(result.now - Number(seconds) * 1000)).toBeLessThan(5000);
    // 5 tokens at 10 per minute refill in 30 s: the key lives that long (plus a second of slack).
    expect(await redis.io.pttl('ttl:b')).toBeGreaterThan(25_000);
    expect(await redis.io.pttl('ttl:b')).toBeLessThanOrEqual(31_000);
    expect(await redis.io.pttl('ttl:c')).toBeGreaterThan(25_000);
  });
});

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
