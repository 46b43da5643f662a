/**
 * The Redis response cache on a real Redis: the shared contract through
 * both supported clients (ioredis, node-redis), then what only a shared
 * cache does: two instances see each other's entries and locks, Redis
 * expires entries by itself, the keys are the documented ones, the byte
 * count is shared, and one owner past `maxBytesPerOwner` stores nothing
 * more while the others still do.
 */
import { redisResponseCache } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { redisCacheBytesKey, redisCacheKeys, redisCacheOwnerKey } from '../../src/cache/redis-response-cache.js';
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

  it('writes only the documented keys: the entry (a hash with a TTL), the lock (with lockMs), the byte count, the owner’s count', async () => {
    const prefix = 'shape:';
    const store = redisResponseCache({ client: redis.io, prefix });
    const { entry, lock } = redisCacheKeys(prefix, KEY_A);
    expect(await store.lookup(KEY_A, { lockMs: 3000, token: 'lead-token' })).toEqual({ lock: 'lead' });
    expect(await redis.io.get(lock)).toBe('lead-token');
    const lockLeft = await redis.io.pttl(lock);
    expect(lockLeft).toBeGreaterThan(2000);
    expect(lockLeft).toBeLessThanOrEqual(3000);
    await store.fill(KEY_A, entryText('shape'), { ttlSeconds: 120, token: 'lead-token', owner: 'alice' });
    const ownerKey = redisCacheOwnerKey(prefix, 'alice');
    expect((await redis.io.keys(`${prefix}*`)).sort()).toEqual([redisCacheBytesKey(prefix), entry, ownerKey].sort());
    // The owner's key names a digest of it, never the principal id itself.
    expect(ownerKey).toMatch(new RegExp(`^${prefix}owner:\\{[0-9a-f]{64}\\}$`));
    expect(await redis.io.type(entry)).toBe('hash');
    expect(await redis.io.hget(entry, 'e')).toBe(entryText('shape'));
    expect(await redis.io.hget(entry, 'o')).toBe(ownerKey);
    expect(Number(await redis.io.hget(ownerKey, 'total'))).toBe(Buffer.byteLength(entryText('shape')));
    const ownerLeft = await redis.io.pttl(ownerKey);
    expect(ownerLeft).toBeGreaterThan(118_000);
    expect(ownerLeft).toBeLessThanOrEqual(180_000);
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

describe('redis response cache: maxBytesPerOwner', () => {
  const KIB = 1024;
  const keyOf = (index: number): string => index.toString(16).padStart(64, '0');
  const fillAs = (store: ReturnType<typeof redisResponseCache>, owner: string, index: number, bytes = 8 * KIB, token = 't'): Promise<void> =>
    store.fill(keyOf(index), String(index % 10).repeat(bytes), { ttlSeconds: 300, token, owner });
  const has = async (store: ReturnType<typeof redisResponseCache>, index: number): Promise<boolean> =>
    (await store.lookup(keyOf(index), { lockMs: 0, token: 'probe' })).entry !== undefined;

  it('Alice past her quota stores nothing more; Bob still stores; Alice’s entries stay', async () => {
    const store = redisResponseCache({ client: redis.io, prefix: 'quota:', maxBytesPerOwner: 64 * KIB });
    // Eight 8 KiB entries are exactly Alice's 64 KiB.
    for (let index = 0; index < 12; index++) await fillAs(store, 'alice', index);
    const alice = [];
    for (let index = 0; index < 12; index++) alice.push(await has(store, index));
    expect(alice).toEqual([true, true, true, true, true, true, true, true, false, false, false, false]);
    for (let index = 100; index < 108; index++) await fillAs(store, 'bob', index);
    for (let index = 100; index < 108; index++) expect(await has(store, index)).toBe(true);
    expect(await store.bytesHeld!()).toBe(128 * KIB);
  });

  it('a fill refused by the quota releases its lock, so the next identical request leads at once', async () => {
    const store = redisResponseCache({ client: redis.node, prefix: 'quota-lock:', maxBytesPerOwner: 64 * KIB });
    for (let index = 0; index < 8; index++) await fillAs(store, 'alice', index);
    expect(await store.lookup(keyOf(50), { lockMs: 5000, token: 'leader' })).toEqual({ lock: 'lead' });
    await fillAs(store, 'alice', 50, 8 * KIB, 'leader');
    expect(await store.lookup(keyOf(50), { lockMs: 5000, token: 'next' })).toEqual({ lock: 'lead' });
  });

  it('the quota is shared by the instances and holds under concurrent fills', async () => {
    const one = redisResponseCache({ client: redis.io, prefix: 'quota-race:', maxBytesPerOwner: 64 * KIB });
    const two = redisResponseCache({ client: redis.node, prefix: 'quota-race:', maxBytesPerOwner: 64 * KIB });
    await Promise.all(Array.from({ length: 30 }, (_, index) => fillAs(index % 2 ? one : two, 'alice', index)));
    let stored = 0;
    for (let index = 0; index < 30; index++) if (await has(one, index)) stored++;
    expect(stored).toBe(8);
    expect(Number(await redis.io.hget(redisCacheOwnerKey('quota-race:', 'alice'), 'total'))).toBe(64 * KIB);
  });

  it('a replaced entry gives its bytes back to its owner', async () => {
    const store = redisResponseCache({ client: redis.io, prefix: 'quota-refill:', maxBytesPerOwner: 64 * KIB });
    await fillAs(store, 'alice', 0, 32 * KIB);
    await fillAs(store, 'alice', 0, 8 * KIB);
    expect(Number(await redis.io.hget(redisCacheOwnerKey('quota-refill:', 'alice'), 'total'))).toBe(8 * KIB);
    // 56 KiB left: seven more 8 KiB entries, not an eighth.
    for (let index = 1; index <= 8; index++) await fillAs(store, 'alice', index);
    const kept = [];
    for (let index = 0; index <= 8; index++) kept.push(await has(store, index));
    expect(kept).toEqual([true, true, true, true, true, true, true, true, false]);
    // Replaced by another owner's fill, an entry's bytes go back to the owner that had it.
    await fillAs(store, 'shared', 1);
    expect(Number(await redis.io.hget(redisCacheOwnerKey('quota-refill:', 'alice'), 'total'))).toBe(56 * KIB);
    expect(Number(await redis.io.hget(redisCacheOwnerKey('quota-refill:', 'shared'), 'total'))).toBe(8 * KIB);
  });

  it('bytes of minutes gone no longer count: the owner stores again', async () => {
    const prefix = 'quota-minutes:';
    const store = redisResponseCache({ client: redis.io, prefix, maxBytesPerOwner: 64 * KIB });
    const ownerKey = redisCacheOwnerKey(prefix, 'alice');
    const minuteNow = Math.floor(Date.now() / 60_000);
    // A full quota, all of it counted until minutes already gone (entries expired long ago).
    await redis.io.hset(ownerKey, String(minuteNow - 1), String(64 * KIB), 'total', String(64 * KIB), 'swept', String(minuteNow - 2));
    await redis.io.pexpire(ownerKey, 60_000);
    await fillAs(store, 'alice', 1);
    expect(await has(store, 1)).toBe(true);
    expect(Number(await redis.io.hget(ownerKey, 'total'))).toBe(8 * KIB);
    expect(await redis.io.hkeys(ownerKey)).not.toContain(String(minuteNow - 1));
  });

  it('defaults to 64 MiB per owner; 0 or Infinity turns the quota off and writes no owner count', async () => {
    const big = 1024 * KIB;
    const byDefault = redisResponseCache({ client: redis.io, prefix: 'quota-default:' });
    for (let index = 0; index < 66; index++) await fillAs(byDefault, 'alice', index, big);
    let stored = 0;
    for (let index = 0; index < 66; index++) if (await has(byDefault, index)) stored++;
    expect(stored).toBe(64);
    for (const [prefix, maxBytesPerOwner] of [['quota-off:', 0], ['quota-inf:', Infinity]] as const) {
      const store = redisResponseCache({ client: redis.node, prefix, maxBytesPerOwner });
      for (let index = 0; index < 12; index++) await fillAs(store, 'alice', index);
      for (let index = 0; index < 12; index++) expect(await has(store, index)).toBe(true);
      expect(await redis.io.exists(redisCacheOwnerKey(prefix, 'alice'))).toBe(0);
    }
  });

  it('a refusal leaves no owner key behind without a TTL', async () => {
    const prefix = 'quota-huge:';
    const store = redisResponseCache({ client: redis.io, prefix, maxBytesPerOwner: 64 * KIB });
    await fillAs(store, 'alice', 1, 64 * KIB + 1);
    expect(await has(store, 1)).toBe(false);
    expect(await redis.io.exists(redisCacheOwnerKey(prefix, 'alice'))).toBe(0);
  });
});
