/**
 * The store semantics (limit-store.ts) on the in-memory store and on a real
 * Redis through both supported clients (ioredis, node-redis). Windows are
 * long (a day or more) where refill would otherwise move the figures while
 * the test runs; the fake-clock cases run on the memory store only.
 */
import { Redis } from 'ioredis';
import { type IoRedisLike, type LimitStore, memoryLimitStore, redisLimitStore } from 'modelgate';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../../helpers/redis-server.js';

const DAY = 86_400_000;
let redis: RedisServer;
let io: Redis;
let node: ReturnType<typeof createClient>;
let run = 0;

beforeAll(async () => {
  redis = await startRedis();
  io = new Redis(redis.url, { lazyConnect: false });
  node = createClient({ url: redis.url });
  await node.connect();
});

afterAll(async () => {
  io?.disconnect();
  await node?.close();
  await redis?.stop();
});

const stores: Array<[string, () => LimitStore]> = [
  ['memory', () => memoryLimitStore()],
  ['redis via ioredis', () => redisLimitStore({ client: io, prefix: `t${++run}:` })],
  ['redis via node-redis', () => redisLimitStore({ client: node, prefix: `t${++run}:` })],
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
    const store = redisLimitStore({ client: io, prefix: 'renew:' });
    const taken = await store.reserve([
      { kind: 'concurrency', key: '{p}:c', limit: 5, leaseMs: 2000, leaseId: 'live' },
    ]);
    await store.reserve([{ kind: 'concurrency', key: '{p}:c', limit: 5, leaseMs: 50, leaseId: 'brief' }]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const briefBefore = await io.zscore('renew:{p}:c', 'brief');
    await store.renew!([
      { key: '{p}:c', leaseId: 'live', leaseMs: 3_600_000 },
      { key: '{p}:c', leaseId: 'brief', leaseMs: 3_600_000 },
      { key: '{p}:c', leaseId: 'ghost', leaseMs: 3_600_000 },
    ]);
    const [seconds] = await io.time();
    const live = Number(await io.zscore('renew:{p}:c', 'live'));
    // Now (Redis's clock) + one hour, not the 2 s it was taken with.
    expect(live).toBeGreaterThan(taken.now + 3_500_000);
    expect(Math.abs(live - (Number(seconds) * 1000 + 3_600_000))).toBeLessThan(5000);
    expect(await io.zscore('renew:{p}:c', 'brief')).toBe(briefBefore);
    expect(await io.zscore('renew:{p}:c', 'ghost')).toBeNull();
    // The set lives as long as its latest lease.
    expect(await io.pttl('renew:{p}:c')).toBeGreaterThan(3_500_000);
  });

  it('takes the time from Redis and leaves keys that expire', async () => {
    const store = redisLimitStore({ client: io, prefix: 'ttl:' });
    const result = await store.reserve([
      { kind: 'bucket', key: 'b', capacity: 10, windowMs: 60_000, amount: 5 },
      { kind: 'concurrency', key: 'c', limit: 1, leaseMs: 30_000, leaseId: 'x' },
    ]);
    const [seconds] = await io.time();
    expect(Math.abs(result.now - Number(seconds) * 1000)).toBeLessThan(5000);
    // 5 tokens at 10 per minute refill in 30 s: the key lives that long (plus a second of slack).
    expect(await io.pttl('ttl:b')).toBeGreaterThan(25_000);
    expect(await io.pttl('ttl:b')).toBeLessThanOrEqual(31_000);
    expect(await io.pttl('ttl:c')).toBeGreaterThan(25_000);
  });

  /** ioredis with a count of the script calls sent to Redis. */
  function countingClient(): { client: IoRedisLike; calls: () => number } {
    let calls = 0;
    const client: IoRedisLike = {
      evalsha: (...args) => (calls++, io.evalsha(...args)),
      eval: (...args) => (calls++, io.eval(...args)),
    };
    return { client, calls: () => calls };
  }

  it("sends a settle with the principal's next reserve: one script call, the release applied first", async () => {
    const { client, calls } = countingClient();
    const store = redisLimitStore({ client, prefix: `ride${++run}:` });
    const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: '{p}:cc', limit: 1, leaseMs: DAY, leaseId });
    const bucket = { kind: 'bucket' as const, key: '{p}:tk', capacity: 100, windowMs: 1000 * DAY };
    expect((await store.reserve([{ ...bucket, amount: 60 }, lease('a')])).ok).toBe(true);
    const before = calls();
    // The request ends (60 reserved, 10 used) and the next one of the same principal arrives in the same turn.
    const settled = store.settle([
      { kind: 'bucket', key: '{p}:tk', capacity: 100, windowMs: 1000 * DAY, delta: -50 },
      { kind: 'concurrency', key: '{p}:cc', leaseId: 'a' },
    ]);
    const next = await store.reserve([{ ...bucket, amount: 80 }, lease('b')]);
    await settled;
    expect(next.ok).toBe(true);
    expect(next.states[0]!.remaining).toBe(10);
    expect(calls() - before).toBe(1);
  });

  it('sends settles no reserve took along at the end of the turn in one call (one per principal on a Cluster), and applies them', async () => {
    for (const [cluster, expectedCalls] of [[false, 1], [true, 2]] as const) {
      const { client, calls } = countingClient();
      const store = redisLimitStore({ client, prefix: `flush${++run}:`, cluster });
      const lease = (key: string, leaseId: string) => ({ kind: 'concurrency' as const, key, limit: 1, leaseMs: DAY, leaseId });
      for (const [key, id] of [['{p}:cc', 'a'], ['{q}:cc', 'b']] as const) expect((await store.reserve([lease(key, id)])).ok).toBe(true);
      const before = calls();
      await Promise.all([
        store.settle([{ kind: 'concurrency', key: '{p}:cc', leaseId: 'a' }]),
        store.settle([{ kind: 'concurrency', key: '{q}:cc', leaseId: 'b' }]),
        store.settle([{ kind: 'concurrency', key: '{p}:cc', leaseId: 'never-taken' }]),
      ]);
      expect(calls() - before).toBe(expectedCalls);
      expect((await store.reserve([lease('{p}:cc', 'c')])).ok).toBe(true);
      expect((await store.reserve([lease('{q}:cc', 'd')])).ok).toBe(true);
    }
  });

  it('sends the reserves of one turn in one call, each all-or-nothing and applied in order', async () => {
    const { client, calls } = countingClient();
    const store = redisLimitStore({ client, prefix: `batch${++run}:` });
    const bucket = (key: string, amount: number) => ({ kind: 'bucket' as const, key, capacity: 10, windowMs: 1000 * DAY, amount });
    const lease = (key: string, leaseId: string) => ({ kind: 'concurrency' as const, key, limit: 2, leaseMs: DAY, leaseId });
    const before = calls();
    const results = await Promise.all([
      store.reserve([bucket('{p}:tk', 6), lease('{p}:cc', 'a')]),
      // Does not fit after the first (4 left): refused, and its lease not taken.
      store.reserve([bucket('{p}:tk', 6), lease('{p}:cc', 'b')]),
      store.reserve([bucket('{p}:tk', 4), lease('{p}:cc', 'c')]),
      // Another principal, same call.
      store.reserve([bucket('{q}:tk', 10)]),
      // The lease limit (2) is reached by a and c.
      store.reserve([bucket('{p}:tk2', 1), lease('{p}:cc', 'd')]),
    ]);
    expect(calls() - before).toBe(1);
    expect(results.map((result) => result.ok)).toEqual([true, false, true, true, false]);
    expect(results[0]!.states.map((state) => state.remaining)).toEqual([4, 1]);
    expect(results[1]!.states[0]!.retryAfterMs).toBeGreaterThan(0);
    expect(results[2]!.states.map((state) => state.remaining)).toEqual([0, 0]);
    expect(results[3]!.states[0]!.remaining).toBe(0);
    expect(results[4]!.states[1]!.retryAfterMs).toBeGreaterThan(0);
    // Refused reservations took nothing: the second bucket is untouched, b and d hold no slot.
    expect(await io.exists(`batch${run}:{p}:tk2`)).toBe(0);
    expect((await io.zrange(`batch${run}:{p}:cc`, '0', '-1')).sort()).toEqual(['a', 'c']);
    expect(new Set(results.map((result) => result.now)).size).toBe(1);
  });

  it('keeps lease ids with spaces and other text intact, and applies budgets and releases of one batch', async () => {
    const store = redisLimitStore({ client: io, prefix: `ids${++run}:` });
    const odd = ' lease 1 b 2 3 \n% ';
    const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: '{p}:cc', limit: 2, leaseMs: DAY, leaseId });
    const budget = (amount: number) => ({ kind: 'budget' as const, key: '{p}:usd', limit: 10, periodMs: DAY, amount });
    const [first, second, third] = await Promise.all([
      store.reserve([lease(odd), budget(4)]),
      store.reserve([lease('plain'), budget(4.5)]),
      store.reserve([lease('third'), budget(1)]),
    ]);
    expect([first!.ok, second!.ok, third!.ok]).toEqual([true, true, false]);
    expect(second!.states[1]!.remaining).toBe(1);
    expect((await io.zrange(`ids${run}:{p}:cc`, '0', '-1')).sort()).toEqual([odd, 'plain'].sort());
    // Released (the odd id), and the budget corrected down by 3 in the same batch as a new reservation.
    const [, next] = await Promise.all([
      store.settle([{ kind: 'concurrency', key: '{p}:cc', leaseId: odd }, { kind: 'budget', key: '{p}:usd', periodMs: DAY, period: first!.states[1]!.period, delta: -3 }]),
      store.reserve([lease('fourth'), budget(4)]),
    ]);
    expect(next!.ok).toBe(true);
    expect(next!.states[1]!.remaining).toBe(0);
    expect((await io.zrange(`ids${run}:{p}:cc`, '0', '-1')).sort()).toEqual(['fourth', 'plain']);
  });

  it('groups the reserves of one turn per principal on a Cluster, and sends one without a shared tag alone', async () => {
    const { client, calls } = countingClient();
    const store = redisLimitStore({ client, prefix: `cl${++run}:`, cluster: true });
    const before = calls();
    const results = await Promise.all([
      store.reserve([{ kind: 'bucket', key: '{p}:tk', capacity: 5, windowMs: DAY, amount: 1 }]),
      store.reserve([{ kind: 'bucket', key: '{q}:tk', capacity: 5, windowMs: DAY, amount: 1 }]),
      store.reserve([{ kind: 'bucket', key: '{p}:tk', capacity: 5, windowMs: DAY, amount: 1 }]),
      store.reserve([{ kind: 'bucket', key: 'plain-a', capacity: 5, windowMs: DAY, amount: 1 }, { kind: 'bucket', key: 'plain-b', capacity: 5, windowMs: DAY, amount: 1 }]),
    ]);
    expect(calls() - before).toBe(3);
    expect(results.map((result) => result.states[0]!.remaining)).toEqual([4, 4, 3, 4]);
  });

  it('detects Cluster clients: ioredis Cluster and node-redis createCluster', async () => {
    const { Cluster } = await import('ioredis');
    const { createCluster } = await import('redis');
    const ioCluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    const nodeCluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] });
    for (const client of [ioCluster, nodeCluster]) {
      const sent: string[][] = [];
      const spy = {
        ...('getMasters' in client ? { getMasters: () => [] } : { isCluster: true }),
        evalsha: (_sha: string, _n: number, ...rest: string[]) => (sent.push(rest), io.evalsha(_sha, _n, ...rest)),
        eval: (script: string, n: number, ...rest: string[]) => (sent.push(rest), io.eval(script, n, ...rest)),
      };
      // The real clients are only checked for what marks them as a Cluster; the spy (same marks) runs the calls.
      expect('isCluster' in client ? client.isCluster : typeof client.getMasters).toEqual('isCluster' in client ? true : 'function');
      const store = redisLimitStore({ client: spy as IoRedisLike, prefix: `det${++run}:` });
      await Promise.all([
        store.reserve([{ kind: 'bucket', key: '{p}:tk', capacity: 5, windowMs: DAY, amount: 1 }]),
        store.reserve([{ kind: 'bucket', key: '{q}:tk', capacity: 5, windowMs: DAY, amount: 1 }]),
      ]);
      expect(sent).toHaveLength(2);
    }
    ioCluster.disconnect();
  });

  it('rejects the settles that rode with a reserve that failed', async () => {
    const failing: IoRedisLike = { evalsha: () => Promise.reject(new Error('connection lost')), eval: () => Promise.reject(new Error('connection lost')) };
    const store = redisLimitStore({ client: failing });
    const settled = store.settle([{ kind: 'concurrency', key: '{p}:cc', leaseId: 'a' }]);
    await expect(store.reserve([{ kind: 'concurrency', key: '{p}:cc', limit: 1, leaseMs: DAY, leaseId: 'b' }])).rejects.toThrow('connection lost');
    await expect(settled).rejects.toThrow('connection lost');
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
