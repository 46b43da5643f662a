/** The `cache` option and a route's `cache: false`: each mistake names its path and its fix; the documented forms construct. */
import { createGateway, memoryResponseStore, type GatewayOptions } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { fakeUpstream, problemAt, problemsOf } from './problems-of.js';

const make = (options: Record<string, unknown>) => () => createGateway({ auth: { keys: ['sk-a'] }, ...options } as GatewayOptions);

/** What a `ResponseCacheStore` holds, and nothing more. */
const cacheStore = (extra: Record<string, unknown> = {}) => ({
  lookup: () => Promise.resolve({ lock: 'none' }),
  fill: () => Promise.resolve(),
  release: () => Promise.resolve(),
  ...extra,
});

const cacheProblem = (cache: unknown, path = 'cache') => problemAt(problemsOf(make({ cache })), path);

describe('cache', () => {
  it('the store alone, and every option given, construct', () => {
    expect(make({ cache: { store: cacheStore() } })).not.toThrow();
    expect(make({ cache: { store: cacheStore({ ttlSeconds: 60 }) } })).not.toThrow();
    const all = { store: cacheStore(), scope: 'shared', models: ['gpt-4o', 'local-*'], ttlSeconds: 2_592_000, requestControls: false, waitMs: 0, lockMs: 0, storeTimeoutMs: 1, storeRetryMs: 0 };
    expect(make({ cache: all })).not.toThrow();
  });

  it('true, false or a store alone: the form to give', () => {
    expect(cacheProblem(true)).toMatch(/^is true: give `\{ store, scope\?, models\?, .*\}`, e\.g\. `\{ store: memoryResponseCache\(\) \}`$/);
    expect(cacheProblem(false)).toBe('is false: leave `cache` out for no cache (`cache: false` belongs on a route, to keep its models out of the cache)');
    expect(cacheProblem(cacheStore())).toMatch(/^is a store: give it as `cache: \{ store \}`/);
    expect(cacheProblem('redis')).toMatch(/^must be `\{ store, .*\}` \(got a string\)$/);
  });

  it('store: missing, a response store, the factory uncalled, or something else', () => {
    expect(cacheProblem({ ttlSeconds: 60 }, 'cache.store')).toBe('is missing: give `memoryResponseCache()` or `redisResponseCache({ client })`');
    expect(cacheProblem({ store: memoryResponseStore() }, 'cache.store')).toBe(
      'is a response store (for `/v1/responses`, the `responseStore` option), not a response cache: give `memoryResponseCache()` or `redisResponseCache({ client })`',
    );
    function memoryResponseCache() {
      return cacheStore();
    }
    expect(cacheProblem({ store: memoryResponseCache }, 'cache.store')).toBe('is the function memoryResponseCache itself: call it, `store: memoryResponseCache(...)`');
    expect(cacheProblem({ store: { lookup: () => undefined } }, 'cache.store')).toBe(
      'must be a response cache store, an object with lookup, fill, release (`memoryResponseCache()` or `redisResponseCache({ client })`) (got an object)',
    );
  });

  it("scope: 'principal' or 'shared'", () => {
    expect(cacheProblem({ store: cacheStore(), scope: 'global' }, 'cache.scope')).toBe(
      'must be "principal" or "shared" (got "global"): who an entry may answer: the principal whose call filled it (default), or every caller (`\'shared\'`)',
    );
  });

  it('ttlSeconds: whole seconds up to 30 days; ms given by mistake named as such', () => {
    expect(cacheProblem({ store: cacheStore(), ttlSeconds: 3_600_000 }, 'cache.ttlSeconds')).toBe(
      'must be a whole number of seconds from 1 to 2592000 (30 days) (got 3600000): ms given for seconds? 3600000 ms is 3600; the time to live is in seconds (3600 for an hour)',
    );
    expect(cacheProblem({ store: cacheStore(), ttlSeconds: 2_592_001 }, 'cache.ttlSeconds')).toBe(
      'must be a whole number of seconds from 1 to 2592000 (30 days) (got 2592001): ms given for seconds? 2592001 ms is 2592; the time to live is in seconds (3600 for an hour)',
    );
    expect(cacheProblem({ store: cacheStore(), ttlSeconds: 0 }, 'cache.ttlSeconds')).toBe('must be a whole number of seconds from 1 to 2592000 (30 days) (got 0)');
    expect(cacheProblem({ store: cacheStore(), ttlSeconds: 1.5 }, 'cache.ttlSeconds')).toBe('must be a whole number of seconds from 1 to 2592000 (30 days) (got 1.5)');
    expect(cacheProblem({ store: cacheStore(), ttlSeconds: '60' }, 'cache.ttlSeconds')).toBe('must be a whole number of seconds from 1 to 2592000 (30 days) (got a string)');
  });

  it("a custom store's own ttlSeconds is held to the same bound", () => {
    expect(cacheProblem({ store: cacheStore({ ttlSeconds: 86_400_000 }) }, 'cache.store.ttlSeconds')).toMatch(/^must be a whole number of seconds .*: ms given for seconds\? 86400000 ms is 86400;/);
  });

  it('models: a non-empty array of ids or globs', () => {
    expect(cacheProblem({ store: cacheStore(), models: [] }, 'cache.models')).toBe(
      'is empty, so no model would be cached: leave `models` out to cache every model, or leave `cache` out for no cache',
    );
    expect(cacheProblem({ store: cacheStore(), models: 'gpt-4o' }, 'cache.models')).toBe("must be an array of model ids or globs, e.g. ['gpt-4o', 'local-*'] (got a string)");
    expect(cacheProblem({ store: cacheStore(), models: ['gpt-4o', ''] }, 'cache.models[1]')).toBe("is an empty string, which matches no model: give a model id or a glob ('*' for every model)");
    expect(cacheProblem({ store: cacheStore(), models: [4] }, 'cache.models[0]')).toBe("must be a model id or a glob such as 'gpt-4o*', a string (got 4)");
  });

  it('the switches and timers, and an unknown name', () => {
    const problems = problemsOf(make({ cache: { store: cacheStore(), requestControls: 'yes', waitMs: -1, lockMs: 1.5, storeTimeoutMs: 0, storeRetryMs: -5, ttl: 60 } }));
    expect(problemAt(problems, 'cache.requestControls')).toBe('must be true or false (got a string)');
    expect(problemAt(problems, 'cache.waitMs')).toMatch(/^must be an integer from 0 to 2147483647 \(got -1\): how long identical requests wait for the first one to fill the entry, in ms; 0 turns it off/);
    expect(problemAt(problems, 'cache.lockMs')).toMatch(/^must be an integer from 0 to 2147483647 \(got 1.5\): the fill lock’s lifetime on a shared store, in ms; 0 turns it off/);
    expect(problemAt(problems, 'cache.storeTimeoutMs')).toBe('must be an integer from 1 to 2147483647 (got 0): ms to wait for one cache store command');
    expect(problemAt(problems, 'cache.storeRetryMs')).toBe('must be an integer from 0 to 2147483647 (got -5): ms to leave the cache store alone after a failure');
    expect(problemAt(problems, 'cache.ttl')).toBe(
      'is not a `cache` option (the options are `store`, `scope`, `models`, `ttlSeconds`, `requestControls`, `waitMs`, `lockMs`, `storeTimeoutMs`, `storeRetryMs`)',
    );
  });
});

describe('routes[i].cache', () => {
  const route = (cache: unknown) => ({ routes: [{ match: '*', upstream: fakeUpstream(), cache }] });

  it('false constructs, with or without the gateway cache', () => {
    expect(make(route(false))).not.toThrow();
    expect(make({ ...route(false), cache: { store: cacheStore() } })).not.toThrow();
  });

  it('true, the options, or anything else: only false', () => {
    expect(problemAt(problemsOf(make(route(true))), 'routes[0].cache')).toBe(
      'is true: a route takes only `cache: false` (to keep it out of the cache); the gateway’s `cache` option turns the cache on for every other route',
    );
    expect(problemAt(problemsOf(make(route({ store: cacheStore() }))), 'routes[0].cache')).toBe(
      'is an object: the cache’s options go on the gateway (`cache: { store, ... }`); a route takes only `cache: false`',
    );
    expect(problemAt(problemsOf(make(route('off'))), 'routes[0].cache')).toBe('must be false, to keep the route out of the gateway’s cache, or left out (got a string)');
  });

  it('in the routing group: where the cache goes', () => {
    expect(problemAt(problemsOf(make({ routing: { cache: false } })), 'routing.cache')).toBe(
      "is not a `routing` option (`routing` holds `health` and `cooldown`, shared by every route): the response cache is the gateway's `cache: { store, ... }`, and a route leaves it with `routes[i].cache: false`",
    );
  });
});
