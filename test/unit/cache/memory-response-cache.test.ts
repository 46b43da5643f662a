/**
 * The in-memory response cache: the shared contract on a fake clock, then
 * what only it does: least recently used entries go first once `maxBytes`
 * is passed, taken from the owner that holds the most bytes (one owner's
 * fills never push out another's), an entry over `maxBytes / 8` is not
 * kept, and expired entries are dropped and stop counting.
 */
import { memoryResponseCache } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { type CacheUnderTest, describeResponseCacheContract } from '../../helpers/response-cache-contract.js';

function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let at = 1_764_000_000_000;
  return { now: () => at, advance: (ms) => (at += ms) };
}

function cacheOnFakeClock(options: { maxBytes?: number } = {}): CacheUnderTest & { advance: (ms: number) => void } {
  const clock = fakeClock();
  const store = memoryResponseCache({ ...options, now: clock.now });
  return {
    store,
    advance: clock.advance,
    pass: async (ms) => clock.advance(ms),
    liveOut: async (_key, ttlSeconds) => {
      // One ms short of the TTL it still answers; at the TTL it is gone.
      clock.advance(ttlSeconds * 1000 - 1);
      expect((await store.lookup(_key, { lockMs: 0, token: 'probe' })).entry).toBeDefined();
      clock.advance(1);
    },
  };
}

describeResponseCacheContract('memory', () => cacheOnFakeClock());

const KIB = 1024;
const key = (index: number): string => index.toString(16).padStart(64, '0');
const hit = async (store: ReturnType<typeof memoryResponseCache>, index: number): Promise<boolean> =>
  (await store.lookup(key(index), { lockMs: 0, token: 'probe' })).entry !== undefined;

describe('memoryResponseCache bounds', () => {
  it('past maxBytes the least recently used entries go first; a hit counts as a use', async () => {
    const { store } = cacheOnFakeClock({ maxBytes: 64 * KIB });
    // Eight entries of 8 KiB fill 64 KiB exactly.
    for (let index = 0; index < 8; index++) await store.fill(key(index), String(index).repeat(8 * KIB), { ttlSeconds: 60, token: 't' });
    expect(await store.bytesHeld!()).toBe(64 * KIB);
    expect(await hit(store, 0)).toBe(true);
    // A ninth: entry 1 is now the least recently used, then 2.
    await store.fill(key(8), '8'.repeat(8 * KIB), { ttlSeconds: 60, token: 't' });
    await store.fill(key(9), '9'.repeat(4 * KIB), { ttlSeconds: 60, token: 't' });
    const kept = [];
    for (let index = 0; index < 10; index++) kept.push(await hit(store, index));
    expect(kept).toEqual([true, false, false, true, true, true, true, true, true, true]);
    expect(await store.bytesHeld!()).toBe(60 * KIB);
  });

  it('an entry over maxBytes / 8 is not kept, replaces nothing it cannot hold, and its fill still releases the lock', async () => {
    const { store } = cacheOnFakeClock({ maxBytes: 64 * KIB });
    await store.fill(key(1), 'a'.repeat(8 * KIB), { ttlSeconds: 60, token: 't' });
    expect(await hit(store, 1)).toBe(true);
    expect((await store.lookup(key(2), { lockMs: 5000, token: 'big' })).lock).toBe('lead');
    await store.fill(key(2), 'b'.repeat(8 * KIB + 1), { ttlSeconds: 60, token: 'big' });
    expect(await hit(store, 2)).toBe(false);
    expect(await store.lookup(key(2), { lockMs: 5000, token: 'next' })).toEqual({ lock: 'lead' });
    // Multibyte text counts by its UTF-8 bytes: 4,097 two-byte characters are over 8 KiB.
    await store.fill(key(3), 'é'.repeat(4 * KIB + 1), { ttlSeconds: 60, token: 't' });
    expect(await hit(store, 3)).toBe(false);
    // Too big an answer for a key drops the older answer under it: a fill replaces.
    await store.fill(key(1), 'c'.repeat(8 * KIB + 1), { ttlSeconds: 60, token: 't' });
    expect(await hit(store, 1)).toBe(false);
    expect(await store.bytesHeld!()).toBe(0);
  });

  it('an expired entry misses, is dropped, and no longer counts', async () => {
    const cache = cacheOnFakeClock();
    await cache.store.fill(key(1), 'x'.repeat(500), { ttlSeconds: 2, token: 't' });
    await cache.store.fill(key(2), 'y'.repeat(300), { ttlSeconds: 60, token: 't' });
    cache.advance(2000);
    expect(await hit(cache.store, 1)).toBe(false);
    expect(await cache.store.bytesHeld!()).toBe(300);
  });

  it('expired entries at the front go on the next fill, read or not', async () => {
    const cache = cacheOnFakeClock();
    await cache.store.fill(key(1), 'x'.repeat(500), { ttlSeconds: 1, token: 't' });
    await cache.store.fill(key(2), 'y'.repeat(300), { ttlSeconds: 1, token: 't' });
    cache.advance(1000);
    await cache.store.fill(key(3), 'z'.repeat(100), { ttlSeconds: 60, token: 't' });
    expect(await cache.store.bytesHeld!()).toBe(100);
  });

  it('a fractional TTL is rounded up to whole seconds', async () => {
    const cache = cacheOnFakeClock();
    await cache.store.fill(key(1), 'x', { ttlSeconds: 1.2, token: 't' });
    cache.advance(1999);
    expect(await hit(cache.store, 1)).toBe(true);
    cache.advance(1);
    expect(await hit(cache.store, 1)).toBe(false);
  });

  it('gives its ttlSeconds as the default only when set', () => {
    expect(memoryResponseCache().ttlSeconds).toBeUndefined();
    expect(memoryResponseCache({ ttlSeconds: 300 }).ttlSeconds).toBe(300);
  });

  it('uses Date.now without a clock of its own', async () => {
    const store = memoryResponseCache();
    await store.fill(key(1), 'x', { ttlSeconds: 60, token: 't' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { ageMs } = await store.lookup(key(1), { lockMs: 0, token: 'r' });
    expect(ageMs).toBeGreaterThanOrEqual(25);
    expect(ageMs).toBeLessThan(2000);
  });
});

describe('memoryResponseCache shares its room fairly between owners', () => {
  const fillAs = (store: ReturnType<typeof memoryResponseCache>, owner: string, index: number, bytes = 8 * KIB): Promise<void> =>
    store.fill(key(index), String(index % 10).repeat(bytes), { ttlSeconds: 60, token: 't', owner });
  const kept = async (store: ReturnType<typeof memoryResponseCache>, indexes: readonly number[]): Promise<boolean[]> => {
    const found = [];
    for (const index of indexes) found.push(await hit(store, index));
    return found;
  };

  it('one owner filling the cache with distinct entries drops its own, least recently used first; the other keeps every entry', async () => {
    const { store } = cacheOnFakeClock({ maxBytes: 64 * KIB });
    // Bob: two 8 KiB entries. Alice: then 30 more, far past the 64 KiB.
    await fillAs(store, 'bob', 100);
    await fillAs(store, 'bob', 101);
    for (let index = 0; index < 30; index++) await fillAs(store, 'alice', index);
    expect(await kept(store, [100, 101])).toEqual([true, true]);
    // 64 KiB holds 8 entries: Bob's 2 and Alice's 6 most recent.
    const alice = await kept(store, Array.from({ length: 30 }, (_, index) => index));
    expect(alice.slice(0, 24).every((found) => !found)).toBe(true);
    expect(alice.slice(24)).toEqual([true, true, true, true, true, true]);
    expect(await store.bytesHeld!()).toBe(64 * KIB);
  });

  it('a hit keeps an entry within its owner: the owner’s next least recently used goes instead', async () => {
    const { store } = cacheOnFakeClock({ maxBytes: 64 * KIB });
    await fillAs(store, 'bob', 100);
    for (let index = 0; index < 7; index++) await fillAs(store, 'alice', index);
    expect(await hit(store, 0)).toBe(true);
    await fillAs(store, 'alice', 7);
    expect(await kept(store, [100, 0, 1, 2, 7])).toEqual([true, true, false, true, true]);
  });

  it('whoever fills, the entry dropped is the largest holder’s, and an owner that filled nothing loses nothing', async () => {
    const { store } = cacheOnFakeClock({ maxBytes: 64 * KIB });
    // Bob holds 40 KiB, Alice 16 KiB, Carol 8 KiB: full.
    for (let index = 0; index < 5; index++) await fillAs(store, 'bob', 100 + index);
    await fillAs(store, 'alice', 0);
    await fillAs(store, 'alice', 1);
    await fillAs(store, 'carol', 200);
    // Alice's fill drops Bob's least recently used, not hers or Carol's.
    await fillAs(store, 'alice', 2);
    expect(await kept(store, [100, 101, 0, 1, 2, 200])).toEqual([false, true, true, true, true, true]);
    // Bob 32 KiB, Alice 24 KiB, Carol 8 KiB: Carol's fill drops Bob's least recently used again,
    // 102 now (the probe above was a hit on 101).
    await fillAs(store, 'carol', 201);
    expect(await kept(store, [101, 102, 103, 104, 0, 1, 2, 200, 201])).toEqual([true, false, true, true, true, true, true, true, true]);
    // Bob 24 KiB, Alice 24 KiB, Carol 16 KiB: Carol's next fill drops one of the two largest holders' (a tie);
    // then Carol holds the most, and her next fill drops her own least recently used (200).
    await fillAs(store, 'carol', 202);
    await fillAs(store, 'carol', 203);
    expect(await store.bytesHeld!()).toBe(64 * KIB);
    expect(await kept(store, [200, 201, 202, 203])).toEqual([false, true, true, true]);
    const bob = (await kept(store, [101, 103, 104])).filter(Boolean).length;
    const alice = (await kept(store, [0, 1, 2])).filter(Boolean).length;
    expect([bob, alice].sort()).toEqual([2, 3]);
  });

  it('an owner keeps its entries when it refills one of them (a fill replaces; the bytes count once)', async () => {
    const { store } = cacheOnFakeClock({ maxBytes: 64 * KIB });
    for (let index = 0; index < 8; index++) await fillAs(store, index < 4 ? 'alice' : 'bob', index);
    await fillAs(store, 'alice', 0);
    expect(await kept(store, [0, 1, 2, 3, 4, 5, 6, 7])).toEqual([true, true, true, true, true, true, true, true]);
    expect(await store.bytesHeld!()).toBe(64 * KIB);
  });
});
