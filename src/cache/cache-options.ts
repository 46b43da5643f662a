/**
 * The gateway's `cache` option and its defaults, in one place: the schema,
 * the docs and the pipeline all read the defaults from here.
 */
import type { ResponseCacheStore } from './cache-types.js';

/** Who an entry may answer: the principal whose call filled it, or every caller. */
export type CacheScope = 'principal' | 'shared';

/** The longest time to live an entry may have, in seconds: 30 days. */
export const MAX_CACHE_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * The response cache: answers of identical requests replayed without an
 * upstream call, in the caller's format and mode. A route leaves it with
 * `cache: false`.
 *
 * @example cache: { store: memoryResponseCache({ maxBytes: 64 * 1024 * 1024 }), ttlSeconds: 600 }
 */
export interface CacheOptions {
  /** Where entries live: `memoryResponseCache()` (one process) or `redisResponseCache({ client })` (every instance). */
  store: ResponseCacheStore;
  /**
   * Who an entry may answer. `'principal'` (default): only the principal
   * whose call filled it. `'shared'`: every caller allowed to use the model,
   * for gateways whose callers may see each other's answers.
   */
  scope?: CacheScope;
  /**
   * The models cached, as the caller names them: exact ids or globs as in
   * `allowedModels` (`['gpt-4o', 'local-*']`). Default: every model.
   */
  models?: readonly string[];
  /**
   * How long an entry answers, in seconds (a whole number from 1 to 30
   * days). Default: the store's own `ttlSeconds`, else 3600.
   */
  ttlSeconds?: number;
  /**
   * Honour callers' `Cache-Control` request directives (`no-cache`,
   * `no-store`, `max-age=N`). Default true; false ignores them.
   */
  requestControls?: boolean;
  /**
   * How long identical requests that miss while the first one's call is
   * running wait for it to fill the entry, in ms; past it (or when the first
   * call fails) they call the upstream themselves. 0: no waiting. Default 10000.
   */
  waitMs?: number;
  /**
   * Lifetime of the fill lock on a store shared by instances, in ms: while
   * it is held, other instances wait for the entry instead of calling the
   * upstream. 0: no lock. Default 60000.
   */
  lockMs?: number;
  /** Longest wait for one store command, in ms; a slow store is a miss. Default 250. */
  storeTimeoutMs?: number;
  /** After a store failure, how long the store is left alone (every request a miss), in ms. Default 5000. */
  storeRetryMs?: number;
}

/** {@link CacheOptions} with every default filled in. */
export interface CacheSettings {
  readonly store: ResponseCacheStore;
  readonly scope: CacheScope;
  /** Undefined: every model. */
  readonly models: readonly string[] | undefined;
  readonly ttlSeconds: number;
  readonly requestControls: boolean;
  readonly waitMs: number;
  readonly lockMs: number;
  readonly storeTimeoutMs: number;
  readonly storeRetryMs: number;
}

/** The defaults of {@link CacheOptions}; `ttlSeconds` applies when the store has none either. */
export const CACHE_DEFAULTS = {
  scope: 'principal',
  ttlSeconds: 3600,
  requestControls: true,
  waitMs: 10_000,
  lockMs: 60_000,
  storeTimeoutMs: 250,
  storeRetryMs: 5_000,
} as const satisfies Omit<CacheSettings, 'store' | 'models'>;

/** The `cache` option with its defaults filled in (options already checked by the gateway's schema). */
export function resolveCacheSettings(options: CacheOptions): CacheSettings {
  return {
    store: options.store,
    scope: options.scope ?? CACHE_DEFAULTS.scope,
    models: options.models,
    ttlSeconds: options.ttlSeconds ?? options.store.ttlSeconds ?? CACHE_DEFAULTS.ttlSeconds,
    requestControls: options.requestControls ?? CACHE_DEFAULTS.requestControls,
    waitMs: options.waitMs ?? CACHE_DEFAULTS.waitMs,
    lockMs: options.lockMs ?? CACHE_DEFAULTS.lockMs,
    storeTimeoutMs: options.storeTimeoutMs ?? CACHE_DEFAULTS.storeTimeoutMs,
    storeRetryMs: options.storeRetryMs ?? CACHE_DEFAULTS.storeRetryMs,
  };
}
