/**
 * The Redis response cache failing mid-test, through each supported client
 * and the gateway's guard: with Redis frozen (SIGSTOP) a lookup is a miss
 * within the time-out, never an error, and the commands during the back-off
 * that follows answer at once without waiting on Redis; once Redis answers
 * again the cache hits as before. With Redis gone (SIGKILL) lookups stay
 * misses and fills resolve.
 */
import { Redis } from 'ioredis';
import { redisResponseCache, type ResponseCacheStore } from 'modelgate';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardResponseCache } from '../../src/cache/guarded-response-cache.js';
import type { StoreFailure } from '../../src/store-guard.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { entryText, KEY_A, KEY_B } from '../helpers/response-cache-contract.js';

const TIMEOUT_MS = 300;
const RETRY_MS = 800;
/** What a lookup during the outage may take at most: the time-out and a margin for a loaded machine. */
const BOUND_MS = TIMEOUT_MS + 700;
/** A lookup skipped during the back-off waits on nothing; well under the time-out. */
const SKIPPED_MS = TIMEOUT_MS / 2;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe.each(['ioredis', 'node-redis'] as const)('the Redis response cache on a Redis that fails, via %s', (kind) => {
  let redis: RedisServer;
  let close: () => Promise<void>;
  let cache: ResponseCacheStore;
  const failures: StoreFailure[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    if (kind === 'ioredis') {
      // The client's defaults: an offline queue and retries, so commands wait rather than fail.
      const io = new Redis(redis.url);
      io.on('error', () => {});
      cache = guardResponseCache(redisResponseCache({ client: io, prefix: 'outage:' }), { timeoutMs: TIMEOUT_MS, retryMs: RETRY_MS, onFailure: (failure) => failures.push(failure) });
      close = async () => io.disconnect();
    } else {
      const node = createClient({ url: redis.url });
      node.on('error', () => {});
      await node.connect();
      cache = guardResponseCache(redisResponseCache({ client: node, prefix: 'outage:' }), { timeoutMs: TIMEOUT_MS, retryMs: RETRY_MS, onFailure: (failure) => failures.push(failure) });
      close = async () => node.destroy();
    }
  });

  afterAll(async () => {
    redis.resume();
    await close();
    await redis.stop();
  });

  it('frozen: a miss within the time-out, then misses at once during the back-off, then hits again', async () => {
    await cache.fill(KEY_A, entryText('kept'), { ttlSeconds: 600, token: 't' });
    expect((await cache.lookup(KEY_A, { lockMs: 0, token: 'r' })).entry).toBe(entryText('kept'));

    redis.pause();
    const first = await timed(() => cache.lookup(KEY_A, { lockMs: 5000, token: 'r1' }));
    expect(first.value).toEqual({ lock: 'none' });
    expect(first.ms).toBeLessThan(BOUND_MS);
    expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.8);
    expect(failures.map(({ operation, reason }) => `${operation}:${reason}`)).toEqual(['lookup:timeout']);

    const during = await timed(async () => [
      await cache.lookup(KEY_A, { lockMs: 5000, token: 'r2' }),
      await cache.lookup(KEY_B, { lockMs: 0, token: 'r3' }),
      await cache.fill(KEY_B, entryText('dropped'), { ttlSeconds: 600, token: 'r2' }),
      await cache.release(KEY_A, 'r2'),
    ]);
    expect(during.value).toEqual([{ lock: 'none' }, { lock: 'none' }, undefined, undefined]);
    expect(during.ms).toBeLessThan(SKIPPED_MS);
    // Skipped commands are not failures of their own.
    expect(failures).toHaveLength(1);

    redis.resume();
    await sleep(RETRY_MS + 100);
    expect((await cache.lookup(KEY_A, { lockMs: 0, token: 'r4' })).entry).toBe(entryText('kept'));
    // The fill during the back-off never reached Redis.
    expect(await cache.lookup(KEY_B, { lockMs: 0, token: 'r5' })).toEqual({ lock: 'none' });
    await cache.fill(KEY_B, entryText('after'), { ttlSeconds: 600, token: 'r6' });
    expect((await cache.lookup(KEY_B, { lockMs: 0, token: 'r7' })).entry).toBe(entryText('after'));
  });

  it('gone: lookups are misses within the time-out and fills resolve, never an error', async () => {
    failures.length = 0;
    await redis.stop();
    const lookup = await timed(() => cache.lookup(KEY_A, { lockMs: 5000, token: 'gone' }));
    expect(lookup.value).toEqual({ lock: 'none' });
    expect(lookup.ms).toBeLessThan(BOUND_MS);
    await expect(cache.fill(KEY_A, entryText('nowhere'), { ttlSeconds: 60, token: 'gone' })).resolves.toBeUndefined();
    await expect(cache.release(KEY_A, 'gone')).resolves.toBeUndefined();
    await sleep(RETRY_MS + 100);
    const later = await timed(() => cache.lookup(KEY_A, { lockMs: 5000, token: 'gone2' }));
    expect(later.value).toEqual({ lock: 'none' });
    expect(later.ms).toBeLessThan(BOUND_MS);
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.every(({ store }) => store === 'response cache')).toBe(true);
  });
});
