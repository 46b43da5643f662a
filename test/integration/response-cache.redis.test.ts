/**
 * The Redis response cache on a real Redis: the shared contract through
 * both supported clients (ioredis, node-redis), then what only a shared
 * cache does: two instances see each other's entries and locks, Redis
 * expires entries by itself, the keys are the documented ones, and the byte
 * count is shared.
 */
import { redisResponseCache } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { redisCacheBytesKey, redisCacheKeys } from '../../src/cache/redis-response-cache.js';
import { useRedisClients } from '../helpers/redis-clients.js';
import { type CacheUnderTest, describeResponseCacheContract, entryText, KEY_A, KEY_B } from '../helpers/response-cache-contract.js';

const redis = useRedisClients();
let run = 0;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function onRedis(client: 'io' | 'node'): CacheUnderTest {
  const prefix = `contract${++run}:`;
  return {
    store: redisResponseCache({ client: redis[client], prefix }),
    pass: sleep,
    liveOut: async (key, ttlSeconds) => {
      const { entry } = redisCacheKeys(prefix, key);
      // Set by the fill, counted by Redis: the whole TTL, less the moments since.
      const left = await redis.io.pttl(entry);
      expect(left).toBeGreaterThan(ttlSeconds * 1000 - 2000);
      expect(left).toBeLessThanOrEqual(ttlSeconds * 1000);
      await redis.io.pexpire(entry, 1);
      await sleep(10);
    },
  };
}

describeResponseCacheContract('redis via ioredis', () => onRedis('io'));
describeResponseCacheContract('redis via node-redis', () => onRedis('node'));

describe('redis response cache shared by instances', () => {
  it('two instances on one Redis (one client of each kind) share entries', async () => {
    const one = redisResponseCache({ client: redis.io, prefix: 'shared:' });
    const two = redisResponseCache({ client: redis.node, prefix: 'shared:' });
    await one.fill(KEY_A, entryText('from one'), { ttlSeconds: 60, token: 't' });
    expect((await two.lookup(KEY_A, { lockMs: 0, token: 'r' })).entry).toBe(entryText('from one'));
    await two.fill(KEY_A, entryText('from two'), { ttlSeconds: 60, token: 't' });
    expect((await one.lookup(KEY_A, { lockMs: 0, token: 'r' })).entry).toBe(entryText('from two'));
    // Another prefix is another cache.
    const other = redisResponseCache({ client: redis.io, prefix: 'other:' });
    expect(await other.lookup(KEY_A, { lockMs: 0, token: 'r' })).toEqual({ lock: 'none' });
  });

  it('two instances share the fill lock: one leads, the other waits until the leader fills', async () => {
    const one = redisResponseCache({ client: redis.io, prefix: 'locks:' });
    const two = redisResponseCache({ client: redis.node, prefix: 'locks:' });
    expect(await one.lookup(KEY_B, { lockMs: 5000, token: 'one' })).toEqual({ lock: 'lead' });
    expect(await two.lookup(KEY_B, { lockMs: 5000, token: 'two' })).toEqual({ lock: 'wait' });
    await two.release(KEY_B, 'two');
    expect(await two.lookup(KEY_B, { lockMs: 5000, token: 'two' })).toEqual({ lock: 'wait' });
    await one.fill(KEY_B, entryText('led'), { ttlSeconds: 60, token: 'one' });
    expect(await two.lookup(KEY_B, { lockMs: 5000, token: 'two' })).toMatchObject({ entry: entryText('led'), lock: 'none' });
    expect(await redis.io.exists(redisCacheKeys('locks:', KEY_B).lock)).toBe(0);
  });

  it('of 50 instances asking at once, exactly one leads', async () => {
    const instances = Array.from({ length: 50 }, (_, index) => redisResponseCache({ client: index % 2 ? redis.io : redis.node, prefix: 'race:' }));
    const locks = await Promise.all(instances.map((store, index) => store.lookup(KEY_A, { lockMs: 5000, token: `t${index}` })));
    expect(locks.filter(({ lock }) => lock === 'lead')).toHaveLength(1);
    expect(locks.filter(({ lock }) => lock === 'wait')).toHaveLength(49);
  });

  it('writes only the documented keys: the entry (a hash with a TTL), the lock (with lockMs), the byte count', async () => {
    const prefix = 'shape:';
    const store = redisResponseCache({ client: redis.io, prefix });
    const { entry, lock } = redisCacheKeys(prefix, KEY_A);
    expect(await store.lookup(KEY_A, { lockMs: 3000, token: 'lead-token' })).toEqual({ lock: 'lead' });
    expect(await redis.io.get(lock)).toBe('lead-token');
    const lockLeft = await redis.io.pttl(lock);
    expect(lockLeft).toBeGreaterThan(2000);
    expect(lockLeft).toBeLessThanOrEqual(3000);
    await store.fill(KEY_A, entryText('shape'), { ttlSeconds: 120, token: 'lead-token' });
    expect((await redis.io.keys(`${prefix}*`)).sort()).toEqual([redisCacheBytesKey(prefix), entry].sort());
    expect(await redis.io.type(entry)).toBe('hash');
    expect(await redis.io.hget(entry, 'e')).toBe(entryText('shape'));
    const ttl = await redis.io.ttl(entry);
    expect(ttl).toBeGreaterThan(118);
    expect(ttl).toBeLessThanOrEqual(120);
    // The byte count lives as long as the entries it counts, and a little more.
    const countLeft = await redis.io.pttl(redisCacheBytesKey(prefix));
    expect(countLeft).toBeGreaterThan(118_000);
    expect(countLeft).toBeLessThanOrEqual(180_000);
  });

  it('an entry expires in Redis after its TTL, by real time', async () => {
    const store = redisResponseCache({ client: redis.node, prefix: 'expiry:' });
    await store.fill(KEY_A, entryText('one second'), { ttlSeconds: 1, token: 't' });
    expect((await store.lookup(KEY_A, { lockMs: 0, token: 'r' })).entry).toBe(entryText('one second'));
    await sleep(1100);
    expect(await store.lookup(KEY_A, { lockMs: 0, token: 'r' })).toEqual({ lock: 'none' });
    expect(await redis.io.exists(redisCacheKeys('expiry:', KEY_A).entry)).toBe(0);
  });

  it('the byte count is shared by the instances and counts a replaced entry once', async () => {
    const one = redisResponseCache({ client: redis.io, prefix: 'bytes:' });
    const two = redisResponseCache({ client: redis.node, prefix: 'bytes:' });
    await one.fill(KEY_A, 'a'.repeat(700), { ttlSeconds: 300, token: 't' });
    await two.fill(KEY_B, 'b'.repeat(200), { ttlSeconds: 600, token: 't' });
    expect(await one.bytesHeld!()).toBe(900);
    expect(await two.bytesHeld!()).toBe(900);
    await two.fill(KEY_A, 'c'.repeat(50), { ttlSeconds: 60, token: 't' });
    expect(await one.bytesHeld!()).toBe(250);
  });

  it('a byte count past its minutes reads 0 and is swept by the next fill', async () => {
    const prefix = 'sweep:';
    const store = redisResponseCache({ client: redis.io, prefix });
    const bytesKey = redisCacheBytesKey(prefix);
    const minuteNow = Math.floor(Date.now() / 60_000);
    // Minutes already gone, as a count left from entries expired long ago.
    await redis.io.hset(bytesKey, String(minuteNow - 5), '1000', String(minuteNow - 1), '2000');
    expect(await store.bytesHeld!()).toBe(0);
    await store.fill(KEY_A, 'x'.repeat(10), { ttlSeconds: 60, token: 't' });
    expect(await store.bytesHeld!()).toBe(10);
    const fields = await redis.io.hkeys(bytesKey);
    expect(fields).not.toContain(String(minuteNow - 5));
    expect(fields).not.toContain(String(minuteNow - 1));
  });

  it('gives its ttlSeconds as the default only when set', () => {
    expect(redisResponseCache({ client: redis.io }).ttlSeconds).toBeUndefined();
    expect(redisResponseCache({ client: redis.io, ttlSeconds: 900 }).ttlSeconds).toBe(900);
  });
});
