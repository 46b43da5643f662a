/** Stand-in until the cache options land on main. */
import type { ResponseCacheStore } from './cache-types.js';

export interface CacheOptions {
  store: ResponseCacheStore;
  scope?: 'principal' | 'shared';
  models?: readonly string[];
  ttlSeconds?: number;
  requestControls?: boolean;
}

export interface CacheSettings {
  store: ResponseCacheStore;
  scope: 'principal' | 'shared';
  models: readonly string[] | undefined;
  ttlSeconds: number;
  requestControls: boolean;
  waitMs: number;
  lockMs: number;
  storeTimeoutMs: number;
  storeRetryMs: number;
}

export function resolveCacheSettings(options: CacheOptions): CacheSettings {
  return {
    store: options.store,
    scope: options.scope ?? 'principal',
    models: options.models,
    ttlSeconds: options.ttlSeconds ?? options.store.ttlSeconds ?? 3600,
    requestControls: options.requestControls ?? true,
    waitMs: 10_000,
    lockMs: 60_000,
    storeTimeoutMs: 250,
    storeRetryMs: 5000,
  };
}
