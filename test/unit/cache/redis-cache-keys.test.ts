/**
 * The Redis keys of one cache key, for Redis Cluster: the entry and its
 * lock carry the same hash tag (the key's digest), so each script call
 * names keys of one slot; different digests land on different slots. Slots
 * are computed with `cluster-key-slot`, the CRC16 both Redis clients use
 * to route Cluster commands.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CACHE_PREFIX, redisCacheBytesKey, redisCacheKeys } from '../../../src/cache/redis-response-cache.js';

const calculateSlot = createRequire(import.meta.url)('cluster-key-slot') as (key: string) => number;

const digest = (index: number): string => (BigInt(index) * 0x9e3779b97f4a7c15n).toString(16).padStart(64, '0').slice(-64);
const tagOf = (key: string): string | undefined => /\{([^}]*)\}/.exec(key)?.[1];

describe('redisCacheKeys', () => {
  it('names the entry `{prefix}{<digest>}` and its lock `{prefix}{<digest>}:lock`', () => {
    const key = 'ab'.repeat(32);
    expect(redisCacheKeys(DEFAULT_CACHE_PREFIX, key)).toEqual({ entry: `modelgate:cache:{${key}}`, lock: `modelgate:cache:{${key}}:lock` });
  });

  it('puts an entry and its lock in one slot: the slot of the digest alone', () => {
    for (let index = 0; index < 200; index++) {
      const key = digest(index);
      const { entry, lock } = redisCacheKeys('app:cache:', key);
      expect(tagOf(entry)).toBe(key);
      expect(tagOf(lock)).toBe(key);
      expect(calculateSlot(entry)).toBe(calculateSlot(key));
      expect(calculateSlot(lock)).toBe(calculateSlot(key));
    }
  });

  it('spreads entries over the slots', () => {
    const slots = new Set(Array.from({ length: 2000 }, (_, index) => calculateSlot(redisCacheKeys('p:', digest(index)).entry)));
    // 2,000 random picks among 16,384 slots: about 1,884 distinct expected.
    expect(slots.size).toBeGreaterThan(1700);
  });

  it('escapes braces and % in a key that is not a digest, so the tag ends where the key does', () => {
    const one = redisCacheKeys('p:', 'a}b');
    const two = redisCacheKeys('p:', 'a%7Db');
    expect(tagOf(one.entry)).toBe('a%7Db');
    expect(one.entry).not.toBe(two.entry);
    expect(tagOf(redisCacheKeys('p:', '{x}').lock)).toBe('%7Bx%7D');
  });

  it('keeps the byte count under a name no entry can have', () => {
    expect(redisCacheBytesKey('p:')).toBe('p:bytes');
    expect(redisCacheBytesKey('p:')).not.toContain('{');
  });
});
