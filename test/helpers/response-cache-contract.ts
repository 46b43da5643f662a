/**
 * What every ResponseCacheStore does (src/cache/cache-types.ts), run on the
 * in-memory cache (test/unit/cache/memory-response-cache.test.ts) and on a
 * real Redis through both supported clients
 * (test/integration/response-cache.redis.test.ts). `make` returns a fresh,
 * empty cache each call, with hooks on its clock.
 */
import type { ResponseCacheStore } from 'modelgate';
import { describe, expect, it } from 'vitest';

export interface CacheUnderTest {
  store: ResponseCacheStore;
  /** Lets `ms` pass on the store's clock: a fake clock moved on, or real waiting. */
  pass(ms: number): Promise<void>;
  /**
   * Checks that the entry under `key` lives `ttlSeconds`, then lets that
   * time pass for it (a fake clock moved on; in Redis, the key's TTL read,
   * then cut to its end).
   */
  liveOut(key: string, ttlSeconds: number): Promise<void>;
}

/** Two distinct keys, as `cacheKey` makes them (hex SHA-256). */
export const KEY_A = 'a'.repeat(8) + '0123456789abcdef'.repeat(3) + 'b'.repeat(8);
export const KEY_B = 'c'.repeat(8) + 'fedcba9876543210'.repeat(3) + 'd'.repeat(8);

/** A serialised entry as the pipeline stores one (the store treats it as opaque text). */
export function entryText(text: string): string {
  return JSON.stringify({ v: 1, createdAt: 1_764_000_000_000, format: 'chat', upstream: 'stub', body: { object: 'chat.completion', choices: [{ message: { content: text } }] } });
}

const NO_LOCK = { lockMs: 0, token: 'reader' } as const;
const TTL = 60;

export function describeResponseCacheContract(name: string, make: () => CacheUnderTest): void {
  describe(`${name} response cache`, () => {
    it('misses, then answers with exactly what was filled, at its age; other keys still miss', async () => {
      const { store } = make();
      expect(await store.lookup(KEY_A, NO_LOCK)).toEqual({ lock: 'none' });
      // Multibyte text and a size well past one network packet.
      const value = entryText(`Grüße 👋 ${'x'.repeat(100_000)}`);
      await store.fill(KEY_A, value, { ttlSeconds: TTL, token: 'writer' });
      const hit = await store.lookup(KEY_A, NO_LOCK);
      expect(hit.entry).toBe(value);
      expect(hit.lock).toBe('none');
      expect(hit.ageMs).toBeGreaterThanOrEqual(0);
      expect(hit.ageMs).toBeLessThan(1000);
      expect(await store.lookup(KEY_B, NO_LOCK)).toEqual({ lock: 'none' });
    });

    it('a fill replaces the entry under its key, and a hit takes no lock', async () => {
      const { store } = make();
      await store.fill(KEY_A, entryText('first'), { ttlSeconds: TTL, token: 't1' });
      await store.fill(KEY_A, entryText('second'), { ttlSeconds: TTL, token: 't2' });
      const hit = await store.lookup(KEY_A, { lockMs: 5000, token: 't3' });
      expect(hit).toMatchObject({ entry: entryText('second'), lock: 'none' });
    });

    it('an entry lives its TTL, then misses', async () => {
      const cache = make();
      await cache.store.fill(KEY_A, entryText('short-lived'), { ttlSeconds: TTL, token: 't' });
      await cache.store.fill(KEY_B, entryText('long-lived'), { ttlSeconds: TTL * 10, token: 't' });
      await cache.liveOut(KEY_A, TTL);
      expect(await cache.store.lookup(KEY_A, NO_LOCK)).toEqual({ lock: 'none' });
      expect((await cache.store.lookup(KEY_B, NO_LOCK)).entry).toBe(entryText('long-lived'));
    });

    it('a fill with a TTL of 0 stores nothing but releases its lock', async () => {
      const { store } = make();
      expect((await store.lookup(KEY_A, { lockMs: 5000, token: 'lead' })).lock).toBe('lead');
      await store.fill(KEY_A, entryText('never'), { ttlSeconds: 0, token: 'lead' });
      expect(await store.lookup(KEY_A, { lockMs: 5000, token: 'next' })).toEqual({ lock: 'lead' });
    });

    it('maxAgeMs: an older entry misses (and may be refilled under the lock), a young enough one answers with its age', async () => {
      const cache = make();
      await cache.store.fill(KEY_A, entryText('aging'), { ttlSeconds: TTL, token: 't' });
      await cache.pass(120);
      expect(await cache.store.lookup(KEY_A, { maxAgeMs: 50, lockMs: 0, token: 'r1' })).toEqual({ lock: 'none' });
      expect(await cache.store.lookup(KEY_A, { maxAgeMs: 50, lockMs: 5000, token: 'r2' })).toEqual({ lock: 'lead' });
      const hit = await cache.store.lookup(KEY_A, { maxAgeMs: 10_000, lockMs: 5000, token: 'r3' });
      expect(hit.entry).toBe(entryText('aging'));
      // Timers may fire a little early by another clock than the store's.
      expect(hit.ageMs).toBeGreaterThanOrEqual(110);
      expect(hit.ageMs).toBeLessThan(5000);
      // The refill by the leader resets the age.
      await cache.store.fill(KEY_A, entryText('fresh'), { ttlSeconds: TTL, token: 'r2' });
      expect(await cache.store.lookup(KEY_A, { maxAgeMs: 50, lockMs: 0, token: 'r4' })).toMatchObject({ entry: entryText('fresh') });
    });

    it('fill lock: the first miss leads, the others wait; a wrong token frees nothing; the leader’s release lets the next lead', async () => {
      const { store } = make();
      expect(await store.lookup(KEY_A, { lockMs: 5000, token: 'one' })).toEqual({ lock: 'lead' });
      expect(await store.lookup(KEY_A, { lockMs: 5000, token: 'two' })).toEqual({ lock: 'wait' });
      expect(await store.lookup(KEY_A, { lockMs: 5000, token: 'three' })).toEqual({ lock: 'wait' });
      // Another key has its own lock.
      expect(await store.lookup(KEY_B, { lockMs: 5000, token: 'four' })).toEqual({ lock: 'lead' });
      // Without asking for a lock, a miss is just a miss.
      expect(await store.lookup(KEY_A, NO_LOCK)).toEqual({ lock: 'none' });
      await store.release(KEY_A, 'two');
      expect(await store.lookup(KEY_A, { lockMs: 5000, token: 'five' })).toEqual({ lock: 'wait' });
      await store.release(KEY_A, 'one');
      expect(await store.lookup(KEY_A, { lockMs: 5000, token: 'six' })).toEqual({ lock: 'lead' });
    });

    it('the leader’s fill stores the entry and frees the lock; a fill with another token stores but leaves the lock', async () => {
      const cache = make();
      const { store } = cache;
      expect((await store.lookup(KEY_A, { lockMs: 5000, token: 'leader' })).lock).toBe('lead');
      await store.fill(KEY_A, entryText('by someone else'), { ttlSeconds: TTL, token: 'stranger' });
      expect((await store.lookup(KEY_A, NO_LOCK)).entry).toBe(entryText('by someone else'));
      await cache.pass(20);
      // Too old to answer: the lock decides, and the leader still holds it.
      expect(await store.lookup(KEY_A, { maxAgeMs: 0, lockMs: 5000, token: 'late' })).toEqual({ lock: 'wait' });
      await store.fill(KEY_A, entryText('by the leader'), { ttlSeconds: TTL, token: 'leader' });
      expect((await store.lookup(KEY_A, NO_LOCK)).entry).toBe(entryText('by the leader'));
      await cache.pass(20);
      expect(await store.lookup(KEY_A, { maxAgeMs: 0, lockMs: 5000, token: 'later' })).toEqual({ lock: 'lead' });
    });

    it('a lock expires after lockMs; the old leader’s release then leaves the new leader’s lock alone', async () => {
      const cache = make();
      const { store } = cache;
      expect(await store.lookup(KEY_A, { lockMs: 60, token: 'old' })).toEqual({ lock: 'lead' });
      expect(await store.lookup(KEY_A, { lockMs: 60, token: 'waiter' })).toEqual({ lock: 'wait' });
      await cache.pass(120);
      expect(await store.lookup(KEY_A, { lockMs: 5000, token: 'new' })).toEqual({ lock: 'lead' });
      await store.release(KEY_A, 'old');
      await store.fill(KEY_B, entryText('unrelated'), { ttlSeconds: TTL, token: 'old' });
      expect(await store.lookup(KEY_A, { lockMs: 5000, token: 'next' })).toEqual({ lock: 'wait' });
      // The old leader's late fill still stores its (complete) answer, and leaves the lock to its holder.
      await store.fill(KEY_A, entryText('late but whole'), { ttlSeconds: TTL, token: 'old' });
      await cache.pass(20);
      expect(await store.lookup(KEY_A, { maxAgeMs: 0, lockMs: 5000, token: 'after' })).toEqual({ lock: 'wait' });
    });

    it('the owner of a fill is bookkeeping only: any lookup of the key gets the entry, and a refill by another owner replaces it', async () => {
      const { store } = make();
      await store.fill(KEY_A, entryText('by alice'), { ttlSeconds: TTL, token: 't', owner: 'alice' });
      await store.fill(KEY_B, entryText('no owner'), { ttlSeconds: TTL, token: 't' });
      expect((await store.lookup(KEY_A, NO_LOCK)).entry).toBe(entryText('by alice'));
      expect((await store.lookup(KEY_B, NO_LOCK)).entry).toBe(entryText('no owner'));
      await store.fill(KEY_A, entryText('by shared'), { ttlSeconds: TTL, token: 't', owner: 'shared' });
      expect((await store.lookup(KEY_A, NO_LOCK)).entry).toBe(entryText('by shared'));
      expect(await store.bytesHeld!()).toBe(Buffer.byteLength(entryText('by shared')) + Buffer.byteLength(entryText('no owner')));
    });

    it('bytesHeld: the UTF-8 bytes of the entries held; a replaced entry counts once', async () => {
      const { store } = make();
      expect(store.bytesHeld).toBeTypeOf('function');
      expect(await store.bytesHeld!()).toBe(0);
      await store.fill(KEY_A, 'x'.repeat(1000), { ttlSeconds: TTL, token: 't' });
      expect(await store.bytesHeld!()).toBe(1000);
      // Two bytes per "é", four per emoji.
      await store.fill(KEY_B, 'é'.repeat(100) + '👋', { ttlSeconds: TTL * 2, token: 't' });
      expect(await store.bytesHeld!()).toBe(1204);
      await store.fill(KEY_A, 'y'.repeat(300), { ttlSeconds: TTL * 3, token: 't' });
      expect(await store.bytesHeld!()).toBe(504);
    });
  });
}
