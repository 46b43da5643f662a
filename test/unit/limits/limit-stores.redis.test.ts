/**
 * The store semantics (support/limit-store-cases.ts) on a real Redis through
 * both supported clients (ioredis, node-redis), and what only the Redis store
 * does: renewals and time taken from Redis, keys that expire.
 */
import { redisLimitStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { useRedisClients } from '../../helpers/redis-clients.js';
import { describeStoreSemantics } from './support/limit-store-cases.js';

const redis = useRedisClients();
let run = 0;

describeStoreSemantics('redis via ioredis', () => redisLimitStore({ client: redis.io, prefix: `t${++run}:` }));
describeStoreSemantics('redis via node-redis', () => redisLimitStore({ client: redis.node, prefix: `t${++run}:` }));

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
