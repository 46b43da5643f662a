/**
 * The guarded response cache: a cache is never needed for an answer, so a
 * lookup that fails, hangs or comes during the back-off is a miss without
 * a lock, a failed fill or release is dropped, nothing ever rejects on the
 * request path, and each failure (not each skipped command) is told once.
 */
import { memoryResponseCache, type ResponseCacheStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { guardResponseCache, RESPONSE_CACHE_CONSEQUENCE } from '../../../src/cache/guarded-response-cache.js';
import { StoreFailure } from '../../../src/store-guard.js';

type Mode = 'up' | 'hang' | 'fail' | 'throw';

/** A working memory cache whose commands can be made to hang, reject or throw, counting those that reached it. */
function switchableCache(): ResponseCacheStore & { modes: Record<string, Mode>; calls: string[] } {
  const inner = memoryResponseCache({ ttlSeconds: 120 });
  const modes: Record<string, Mode> = { '*': 'up' };
  const calls: string[] = [];
  const run = <T>(name: string, command: () => Promise<T>): Promise<T> => {
    calls.push(name);
    const mode = modes[name] ?? modes['*'];
    if (mode === 'hang') return new Promise<T>(() => {});
    if (mode === 'fail') return Promise.reject(new Error('connect ECONNREFUSED 10.11.12.13:6379'));
    if (mode === 'throw') throw new Error('thrown, not rejected');
    return command();
  };
  return {
    modes,
    calls,
    ttlSeconds: inner.ttlSeconds,
    lookup: (key, options) => run('lookup', () => inner.lookup(key, options)),
    fill: (key, entry, options) => run('fill', () => inner.fill(key, entry, options)),
    release: (key, token) => run('release', () => inner.release(key, token)),
    bytesHeld: () => run('bytesHeld', async () => inner.bytesHeld!()),
  };
}

const LOOK = { lockMs: 5000, token: 'me' } as const;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('guardResponseCache', () => {
  it('works as the cache it guards while the cache works', async () => {
    const guarded = guardResponseCache(switchableCache(), { timeoutMs: 1000, retryMs: 5000 });
    expect(guarded.ttlSeconds).toBe(120);
    expect(await guarded.lookup('k', LOOK)).toEqual({ lock: 'lead' });
    expect(await guarded.lookup('k', { ...LOOK, token: 'other' })).toEqual({ lock: 'wait' });
    await guarded.fill('k', 'answer', { ttlSeconds: 60, token: 'me' });
    expect(await guarded.lookup('k', LOOK)).toMatchObject({ entry: 'answer', lock: 'none' });
    expect(await guarded.bytesHeld!()).toBe(6);
    await guarded.release('k', 'me');
  });

  it.each(['fail', 'throw', 'hang'] as const)('a lookup that does %s is a miss without a lock, within the time-out, told once', async (mode) => {
    const cache = switchableCache();
    cache.modes.lookup = mode;
    const failures: StoreFailure[] = [];
    const guarded = guardResponseCache(cache, { timeoutMs: 50, retryMs: 5000, onFailure: (failure) => failures.push(failure) });
    const started = performance.now();
    expect(await guarded.lookup('k', LOOK)).toEqual({ lock: 'none' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ store: 'response cache', operation: 'lookup', reason: mode === 'hang' ? 'timeout' : 'failed' });
  });

  it.each(['fill', 'release'] as const)('a %s that fails is dropped: it resolves, and is told', async (operation) => {
    const cache = switchableCache();
    cache.modes[operation] = 'fail';
    const failures: StoreFailure[] = [];
    const guarded = guardResponseCache(cache, { timeoutMs: 1000, retryMs: 5000, onFailure: (failure) => failures.push(failure) });
    const done = operation === 'fill' ? guarded.fill('k', 'answer', { ttlSeconds: 60, token: 'me' }) : guarded.release('k', 'me');
    await expect(done).resolves.toBeUndefined();
    expect(failures.map((failure) => failure.operation)).toEqual([operation]);
  });

  it('during the back-off no command reaches the cache: lookups are misses at once, fills are dropped; then it is used again', async () => {
    const cache = switchableCache();
    cache.modes['*'] = 'fail';
    const failures: StoreFailure[] = [];
    const guarded = guardResponseCache(cache, { timeoutMs: 1000, retryMs: 150, onFailure: (failure) => failures.push(failure) });
    expect(await guarded.lookup('k', LOOK)).toEqual({ lock: 'none' });
    cache.modes['*'] = 'up';
    const reached = cache.calls.length;
    expect(await guarded.lookup('k', LOOK)).toEqual({ lock: 'none' });
    await guarded.fill('k', 'answer', { ttlSeconds: 60, token: 'me' });
    await guarded.release('k', 'me');
    expect(cache.calls.length).toBe(reached);
    expect(failures).toHaveLength(1);
    await sleep(200);
    expect(await guarded.lookup('k', LOOK)).toEqual({ lock: 'lead' });
    await guarded.fill('k', 'answer', { ttlSeconds: 60, token: 'me' });
    expect(await guarded.lookup('k', LOOK)).toMatchObject({ entry: 'answer' });
  });

  it('a fill that fails, or is skipped during the back-off, releases its lock once the back-off is over', async () => {
    const cache = switchableCache();
    const guarded = guardResponseCache(cache, { timeoutMs: 1000, retryMs: 100 });
    // Two leaders of two keys; the first fill fails, the second is skipped during the back-off.
    expect(await guarded.lookup('a', LOOK)).toEqual({ lock: 'lead' });
    expect(await guarded.lookup('b', { ...LOOK, token: 'other' })).toEqual({ lock: 'lead' });
    cache.modes.fill = 'fail';
    await guarded.fill('a', 'answer', { ttlSeconds: 60, token: 'me' });
    await guarded.fill('b', 'answer', { ttlSeconds: 60, token: 'other' });
    expect(cache.calls.filter((call) => call === 'release')).toHaveLength(0);
    // The releases run once the 100 ms back-off is over: waited for, with a deadline, as a loaded machine runs timers late.
    const releases = () => cache.calls.filter((call) => call === 'release').length;
    for (const deadline = Date.now() + 5000; releases() < 2 && Date.now() < deadline; ) await sleep(20);
    expect(releases()).toBe(2);
    // Both locks are gone: the next lookups lead instead of waiting out lockMs.
    expect(await guarded.lookup('a', { ...LOOK, token: 'next' })).toEqual({ lock: 'lead' });
    expect(await guarded.lookup('b', { ...LOOK, token: 'next' })).toEqual({ lock: 'lead' });
  });

  it('a reply that breaks the contract is a miss; a hit without an age is of age 0', async () => {
    const replies: unknown[] = [null, 'hit', { entry: 42 }, { lock: 'mine' }, { entry: 'answer', lock: 'lead' }];
    let next = 0;
    const odd: ResponseCacheStore = {
      lookup: async () => replies[next++] as never,
      fill: async () => {},
      release: async () => {},
    };
    const guarded = guardResponseCache(odd, { timeoutMs: 1000, retryMs: 5000 });
    for (let i = 0; i < 4; i++) expect(await guarded.lookup('k', LOOK)).toEqual({ lock: 'none' });
    expect(await guarded.lookup('k', LOOK)).toEqual({ entry: 'answer', ageMs: 0, lock: 'none' });
    expect(guarded.bytesHeld).toBeUndefined();
    expect(guarded.ttlSeconds).toBeUndefined();
  });

  it('bytesHeld is bounded too, and rejects with the failure for the metrics to leave out', async () => {
    const cache = switchableCache();
    cache.modes.bytesHeld = 'hang';
    const guarded = guardResponseCache(cache, { timeoutMs: 50, retryMs: 5000 });
    await expect(guarded.bytesHeld!()).rejects.toBeInstanceOf(StoreFailure);
  });

  it('a throwing onFailure changes nothing', async () => {
    const cache = switchableCache();
    cache.modes.lookup = 'fail';
    const guarded = guardResponseCache(cache, {
      timeoutMs: 1000,
      retryMs: 5000,
      onFailure: () => {
        throw new Error('logger down');
      },
    });
    expect(await guarded.lookup('k', LOOK)).toEqual({ lock: 'none' });
  });
});

describe('the cache failure as the log says it', () => {
  it('says how long the cache is left alone and that calls go upstream meanwhile', async () => {
    const cache = switchableCache();
    cache.modes.lookup = 'fail';
    const failures: StoreFailure[] = [];
    const guarded = guardResponseCache(cache, { timeoutMs: 1000, retryMs: 7000, onFailure: (failure) => failures.push(failure) });
    await guarded.lookup('k', LOOK);
    expect(RESPONSE_CACHE_CONSEQUENCE(failures[0]!)).toBe('It is left alone for 7 s: calls meanwhile go to their upstream, and their answers are not stored.');
  });
});
