/** The `cache` option's defaults, filled in one place. */
import { describe, expect, it } from 'vitest';
import { resolveCacheSettings } from '../../../src/cache/cache-options.js';
import type { ResponseCacheStore } from '../../../src/cache/cache-types.js';

function store(ttlSeconds?: number): ResponseCacheStore {
  return {
    ...(ttlSeconds === undefined ? {} : { ttlSeconds }),
    lookup: () => Promise.resolve({ lock: 'none' }),
    fill: () => Promise.resolve(),
    release: () => Promise.resolve(),
  };
}

describe('resolveCacheSettings', () => {
  it('fills the documented defaults', () => {
    const plain = store();
    expect(resolveCacheSettings({ store: plain })).toEqual({
      store: plain,
      scope: 'principal',
      models: undefined,
      ttlSeconds: 3600,
      requestControls: true,
      waitMs: 10_000,
      lockMs: 60_000,
      storeTimeoutMs: 250,
      storeRetryMs: 5_000,
    });
  });

  it('ttlSeconds: the option, else the store’s, else an hour', () => {
    expect(resolveCacheSettings({ store: store(120) }).ttlSeconds).toBe(120);
    expect(resolveCacheSettings({ store: store(120), ttlSeconds: 30 }).ttlSeconds).toBe(30);
    expect(resolveCacheSettings({ store: store() }).ttlSeconds).toBe(3600);
  });

  it('keeps every value given, 0 and false included', () => {
    const given = { store: store(), scope: 'shared', models: ['gpt-*'], ttlSeconds: 5, requestControls: false, waitMs: 0, lockMs: 0, storeTimeoutMs: 1, storeRetryMs: 0 } as const;
    expect(resolveCacheSettings(given)).toEqual(given);
  });
});
