/**
 * The Redis store's batching (redis-batch.ts): the reserves and settles of
 * two turns go out as one script call (how many calls a turn costs), applied
 * in the order they were made, and must answer exactly as the memory store
 * (the reference) would have, one call at a time. Also: one request's odd limits never fail the others
 * of its call, and a burst is split into calls of at most 128 operations.
 */
import { Cluster } from 'ioredis';
import {
  type IoRedisLike,
  type LimitAdjustment,
  type LimitCheck,
  type LimitStore,
  memoryLimitStore,
  type ReserveResult,
  redisLimitStore,
} from 'modelgate';
import { createCluster } from 'redis';
import { describe, expect, it } from 'vitest';
import { guardStore } from '../../../src/limits/guarded-store.js';
import { resolveStoreErrorPolicy } from '../../../src/limits/store-error-policy.js';
import { useRedisClients } from '../../helpers/redis-clients.js';

const DAY = 86_400_000;
const redis = useRedisClients();
let run = 0;

/** ioredis with a count of the script calls sent. */
function counting(): { client: IoRedisLike; calls: () => number } {
  let calls = 0;
  return {
    client: { evalsha: (...args) => (calls++, redis.io.evalsha(...args)), eval: (...args) => (calls++, redis.io.eval(...args)) },
    calls: () => calls,
  };
}

/** A summary that both stores must agree on: admitted, and per check what is left and whether (and how) it must wait. */
function summary(result: ReserveResult): unknown {
  return { ok: result.ok, states: result.states.map((state) => [state.remaining, Math.sign(state.retryAfterMs)]) };
}

describe('one call per batch', () => {
  it("sends a settle with the principal's next reserve: one script call, the release applied first", async () => {
    const { client, calls } = counting();
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
      const { client, calls } = counting();
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

  it('sends the renewals of several principals with the rest of the turn in one call (one per principal on a Cluster)', async () => {
    for (const [cluster, expectedCalls] of [[false, 1], [true, 3]] as const) {
      const { client, calls } = counting();
      const store = redisLimitStore({ client, prefix: `renew-calls${++run}:`, cluster });
      const lease = (key: string, leaseId: string) => ({ kind: 'concurrency' as const, key, limit: 5, leaseMs: 60_000, leaseId });
      await Promise.all([store.reserve([lease('{p}:cc', 'a')]), store.reserve([lease('{q}:cc', 'b')])]);
      const before = calls();
      await Promise.all([
        store.renew!([
          { key: '{p}:cc', leaseId: 'a', leaseMs: DAY },
          { key: '{q}:cc', leaseId: 'b', leaseMs: DAY },
        ]),
        store.reserve([lease('{r}:cc', 'c')]),
      ]);
      expect(calls() - before).toBe(expectedCalls);
      expect(Number(await redis.io.zscore(`renew-calls${run}:{q}:cc`, 'b'))).toBeGreaterThan(Date.now() + DAY - 60_000);
    }
  });

  it('sends the reserves of one turn in one call, each all-or-nothing and applied in order', async () => {
    const { client, calls } = counting();
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
    expect(await redis.io.exists(`batch${run}:{p}:tk2`)).toBe(0);
    expect((await redis.io.zrange(`batch${run}:{p}:cc`, '0', '-1')).sort()).toEqual(['a', 'c']);
    expect(new Set(results.map((result) => result.now)).size).toBe(1);
  });

  it('keeps a batch open past the end of its turn: a reserve made after it goes in the same call, in order', async () => {
    const { client, calls } = counting();
    const store = redisLimitStore({ client, prefix: `turns${++run}:` });
    const bucket = (amount: number) => ({ kind: 'bucket' as const, key: '{p}:tk', capacity: 10, windowMs: 1000 * DAY, amount });
    const before = calls();
    const first = store.reserve([bucket(7)]);
    // The end of this turn: runs after the store's own immediate (queued first), where an earlier store sent its call.
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls() - before).toBe(0);
    const second = store.reserve([bucket(7)]);
    const [one, two] = await Promise.all([first, second]);
    expect(calls() - before).toBe(1);
    expect([one.ok, two.ok]).toEqual([true, false]);
    expect(two.states[0]!.retryAfterMs).toBeGreaterThan(0);
  });

  it('keeps lease ids with spaces and other text intact, and applies budgets and releases of one batch', async () => {
    const store = redisLimitStore({ client: redis.io, prefix: `ids${++run}:` });
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
    expect((await redis.io.zrange(`ids${run}:{p}:cc`, '0', '-1')).sort()).toEqual([odd, 'plain'].sort());
    // Released (the odd id), and the budget corrected down by 3 in the same batch as a new reservation.
    const [, next] = await Promise.all([
      store.settle([{ kind: 'concurrency', key: '{p}:cc', leaseId: odd }, { kind: 'budget', key: '{p}:usd', periodMs: DAY, period: first!.states[1]!.period, delta: -3 }]),
      store.reserve([lease('fourth'), budget(4)]),
    ]);
    expect(next!.ok).toBe(true);
    expect(next!.states[1]!.remaining).toBe(0);
    expect((await redis.io.zrange(`ids${run}:{p}:cc`, '0', '-1')).sort()).toEqual(['fourth', 'plain']);
  });

  it('groups the reserves of one turn per principal on a Cluster, and sends one without a shared tag alone', async () => {
    const { client, calls } = counting();
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
    const ioCluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    const nodeCluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] });
    for (const client of [ioCluster, nodeCluster]) {
      const sent: string[][] = [];
      const spy = {
        ...('getMasters' in client ? { getMasters: () => [] } : { isCluster: true }),
        evalsha: (_sha: string, _n: number, ...rest: string[]) => (sent.push(rest), redis.io.evalsha(_sha, _n, ...rest)),
        eval: (script: string, n: number, ...rest: string[]) => (sent.push(rest), redis.io.eval(script, n, ...rest)),
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
});

describe('call order within a turn', () => {
  it('a lease released before its renewal in the same turn stays released, and a renewal made after a release cannot bring it back', async () => {
    const prefix = `renew-order${++run}:`;
    const store = redisLimitStore({ client: redis.io, prefix });
    const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: '{p}:cc', limit: 5, leaseMs: 60_000, leaseId });
    await Promise.all([store.reserve([lease('gone')]), store.reserve([lease('kept')])]);
    await Promise.all([
      store.settle([{ kind: 'concurrency', key: '{p}:cc', leaseId: 'gone' }]),
      store.renew!([
        { key: '{p}:cc', leaseId: 'gone', leaseMs: DAY },
        { key: '{p}:cc', leaseId: 'kept', leaseMs: DAY },
      ]),
    ]);
    expect(await redis.io.zrange(`${prefix}{p}:cc`, '0', '-1')).toEqual(['kept']);
    expect(await redis.io.pttl(`${prefix}{p}:cc`)).toBeGreaterThan(DAY - 60_000);
  });

  it('a settle made after a reserve is applied after it (a correction up does not make room for it)', async () => {
    const bucket = { kind: 'bucket' as const, key: '{p}:tk', capacity: 10, windowMs: 1000 * DAY };
    const scenario = async (store: LimitStore) => {
      await store.reserve([{ ...bucket, amount: 2 }]);
      // Same turn: another request reserves 8 (fits: 8 left), then the first settles +5 (it used 7).
      const next = store.reserve([{ ...bucket, amount: 8 }]);
      await store.settle([{ ...bucket, delta: 5 }]);
      return (await next).ok;
    };
    expect(await scenario(memoryLimitStore())).toBe(true);
    expect(await scenario(redisLimitStore({ client: redis.io, prefix: `order${++run}:` }))).toBe(true);
  });

  it('a release made after a reserve does not free the slot for it', async () => {
    const lease = (leaseId: string) => ({ kind: 'concurrency' as const, key: '{p}:cc', limit: 1, leaseMs: DAY, leaseId });
    const scenario = async (store: LimitStore) => {
      await store.reserve([lease('a')]);
      const next = store.reserve([lease('b')]);
      await store.settle([{ kind: 'concurrency', key: '{p}:cc', leaseId: 'a' }]);
      return (await next).ok;
    };
    expect(await scenario(memoryLimitStore())).toBe(false);
    expect(await scenario(redisLimitStore({ client: redis.io, prefix: `order${++run}:` }))).toBe(false);
  });
});

describe('randomised comparison with the memory store', () => {
  // Windows and periods so long that refill and period changes cannot move the figures during the test.
  const LONG = 1_000_000 * DAY;

  /** A small deterministic generator (same sequence for both stores). */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
  }

  /** Plays `rounds` turns of reserves and settles, called in a random mixed order, on both stores; returns the first disagreement. */
  async function compare(seed: number, rounds: number, redisStore: LimitStore): Promise<string | undefined> {
    const memory = memoryLimitStore();
    const next = random(seed);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    let leaseNo = 0;
    const check = (principal: string): LimitCheck => {
      switch (pick(['requests', 'tokens', 'concurrency', 'budget'] as const)) {
        case 'requests':
          return { kind: 'bucket', key: `${principal}:rq`, capacity: 5, windowMs: LONG, amount: 1 };
        case 'tokens':
          return { kind: 'bucket', key: `${principal}:tk`, capacity: 100, windowMs: LONG, amount: Math.floor(next() * 60) };
        case 'concurrency':
          return { kind: 'concurrency', key: `${principal}:cc`, limit: 3, leaseMs: LONG / 1000, leaseId: `lease ${++leaseNo}` };
        case 'budget':
          return { kind: 'budget', key: `${principal}:sp`, limit: 1000, periodMs: LONG, amount: Math.floor(next() * 400) };
      }
    };
    const held: Array<{ checks: LimitCheck[]; periods: number[] }> = [];
    for (let round = 0; round < rounds; round++) {
      const operations: Array<{ settle: LimitAdjustment[] } | { reserve: LimitCheck[] }> = [];
      for (let i = Math.floor(next() * 4); i > 0 && held.length > 0; i--) {
        const { checks, periods } = held.splice(Math.floor(next() * held.length), 1)[0]!;
        operations.push({
          settle: checks.map((c, index): LimitAdjustment => {
            if (c.kind === 'bucket') return { kind: 'bucket', key: c.key, capacity: c.capacity, windowMs: c.windowMs, delta: Math.floor(next() * 80) - 40 };
            if (c.kind === 'concurrency') return { kind: 'concurrency', key: c.key, leaseId: c.leaseId };
            return { kind: 'budget', key: c.key, periodMs: c.periodMs, period: periods[index]!, delta: Math.floor(next() * 300) - 150 };
          }),
        });
      }
      for (let i = 1 + Math.floor(next() * 8); i > 0; i--) {
        const principal = pick(['{a}', '{b}', '{c}']);
        const checks = new Map<string, LimitCheck>();
        for (let j = 1 + Math.floor(next() * 3); j > 0; j--) {
          const made = check(principal);
          if (!checks.has(made.key)) checks.set(made.key, made);
        }
        // Settles and reserves mixed: each store must apply them in this order.
        operations.splice(Math.floor(next() * (operations.length + 1)), 0, { reserve: [...checks.values()] });
      }
      const play = (store: LimitStore) => {
        const settled: Promise<void>[] = [];
        const reserved: Promise<ReserveResult>[] = [];
        for (const operation of operations) {
          if ('settle' in operation) settled.push(store.settle(operation.settle));
          else reserved.push(store.reserve(operation.reserve));
        }
        return Promise.all(settled).then(() => Promise.all(reserved));
      };
      const expected = await play(memory);
      const actual = await play(redisStore);
      const reserves = operations.filter((operation): operation is { reserve: LimitCheck[] } => 'reserve' in operation);
      for (let i = 0; i < expected.length; i++) {
        const [want, got] = [summary(expected[i]!), summary(actual[i]!)];
        if (JSON.stringify(want) !== JSON.stringify(got)) return `seed ${seed}, round ${round}, reserve ${i}: memory ${JSON.stringify(want)}, redis ${JSON.stringify(got)}`;
        if (expected[i]!.ok) held.push({ checks: reserves[i]!.reserve, periods: actual[i]!.states.map((state) => state.period) });
      }
    }
    return undefined;
  }

  describe.each([
    ['ioredis', () => redis.io],
    ['node-redis', () => redis.node],
  ] as const)('%s', (_name, client) => {
    it.each([false, true])('agrees on every admission and remaining figure (cluster %s)', async (cluster) => {
      const disagreements: string[] = [];
      for (let seed = 1; seed <= 12; seed++) {
        const store = redisLimitStore({ client: client() as IoRedisLike, prefix: `random${++run}:`, cluster });
        const disagreement = await compare(seed, 30, store);
        if (disagreement) disagreements.push(disagreement);
      }
      expect(disagreements).toEqual([]);
    });
  });
});

describe("one request's odd limits", () => {
  const odd: Array<[string, LimitCheck[]]> = [
    ['a bucket of capacity 0 reserving 0', [{ kind: 'bucket', key: '{odd}:tk', capacity: 0, windowMs: 60_000, amount: 0 }]],
    ['a lease of 1.5 ms', [{ kind: 'concurrency', key: '{odd}:cc', limit: 5, leaseMs: 1.5, leaseId: 'x' }]],
    ['a budget that never resets (period Infinity)', [{ kind: 'budget', key: '{odd}:sp', limit: 100, periodMs: Infinity, amount: 5 }]],
    ['a bucket of capacity Infinity', [{ kind: 'bucket', key: '{odd}:rq', capacity: Infinity, windowMs: 60_000, amount: 1 }]],
    ['a bucket reserving Infinity', [{ kind: 'bucket', key: '{odd}:rq', capacity: 10, windowMs: 60_000, amount: Infinity }]],
    ['a concurrency limit of Infinity', [{ kind: 'concurrency', key: '{odd}:cc', limit: Infinity, leaseMs: 60_000, leaseId: 'y' }]],
    ['a window of 1e15 ms', [{ kind: 'bucket', key: '{odd}:big', capacity: 3, windowMs: 1e15, amount: 2 }]],
  ];

  it.each(odd)('%s: admitted or refused as the memory store does, and another request of the same call is served', async (_name, checks) => {
    const prefix = `odd${++run}:`;
    const store = redisLimitStore({ client: redis.io, prefix });
    const alice = { kind: 'concurrency' as const, key: '{alice}:cc', limit: 1, leaseMs: DAY, leaseId: 'a1' };
    const [theirs, oddOne] = await Promise.all([store.reserve([alice]), store.reserve(checks)]);
    expect(theirs.ok).toBe(true);
    expect(oddOne.ok).toBe((await memoryLimitStore().reserve(checks)).ok);
    for (const state of oddOne.states) for (const value of Object.values(state)) expect(Number.isSafeInteger(value) || Number.isFinite(value)).toBe(true);
  });
});

describe('bursts', () => {
  const FOUR_KINDS = [{ kind: 'requests' }, { kind: 'tokens' }, { kind: 'concurrent' }, { kind: 'budget' }] as const;
  const fourChecks = (i: number): LimitCheck[] => [
    { kind: 'bucket', key: `{u${i}}:rq`, capacity: 10, windowMs: 60_000, amount: 1 },
    { kind: 'bucket', key: `{u${i}}:tk`, capacity: 1e6, windowMs: 60_000, amount: 500 },
    { kind: 'concurrency', key: `{u${i}}:cc`, limit: 4, leaseMs: 60_000, leaseId: `l${i}` },
    { kind: 'budget', key: `{u${i}}:sp`, limit: 1e6, periodMs: DAY, amount: 20 },
  ];

  it('1,000 reservations in one turn go out as calls of at most 128, all answered by Redis within the store time-out', async () => {
    const { client, calls } = counting();
    const store = redisLimitStore({ client, prefix: `burst${++run}:` });
    // A time-out no loaded machine reaches: what is checked is the batching, not the speed (a late answer would be refunded and sent again).
    const guarded = guardStore(store, { policy: resolveStoreErrorPolicy('open'), timeoutMs: 5_000, retryMs: 1000, bounded: true });
    const before = calls();
    const reservations = await Promise.all(Array.from({ length: 1000 }, (_, i) => guarded.reserve(fourChecks(i), FOUR_KINDS)));
    expect(calls() - before).toBe(Math.ceil(1000 / 128));
    expect(reservations.every(({ result, store: answeredBy }) => result.ok && answeredBy === store)).toBe(true);
  });

  it('30,000 reservations in one turn through ioredis (one call would pass its argument limit)', async () => {
    const store = redisLimitStore({ client: redis.io, prefix: `huge${++run}:` });
    const results = await Promise.all(Array.from({ length: 30_000 }, (_, i) => store.reserve(fourChecks(i))));
    expect(results.filter((result) => result.ok)).toHaveLength(30_000);
  }, 60_000);
});
