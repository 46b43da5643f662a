/** Stand-in until the store guard lands on main. */
import type { StoreFailure } from '../store-guard.js';
import type { ResponseCacheStore } from './cache-types.js';

export interface GuardResponseCacheOptions {
  timeoutMs: number;
  retryMs: number;
  onFailure?: (failure: StoreFailure) => void;
}

export function guardResponseCache(store: ResponseCacheStore, _options: GuardResponseCacheOptions): ResponseCacheStore {
  return store;
}
