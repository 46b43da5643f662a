/**
 * Any {@link ResponseCacheStore} (built-in or custom) with every command
 * bounded by a time-out and a back-off after each failure
 * (`store-guard.ts`). A cache is never needed for an answer: a lookup that
 * fails, times out or comes during the back-off is a miss without a lock
 * (the caller goes upstream), a fill or release that fails is dropped, and
 * neither ever reaches the caller as an error. A fill or release that fails
 * (or is skipped during the back-off) is followed by one more release once
 * the back-off is over: the key's fill lock would otherwise outlive the
 * failure, and every identical request would wait for it until it expires. Failures are told to
 * `onFailure` (the gateway's store-failure log).
 *
 * @internal
 */
import { createStoreGuard, type StoreFailure } from '../store-guard.js';
import type { CacheLookup, CacheLookupOptions, ResponseCacheStore } from './cache-types.js';

/** The store as failures name it. */
export const RESPONSE_CACHE_NAME = 'response cache';

/**
 * Ms one cache command may take by default. A lookup is on the way of
 * every cacheable call, and an upstream answers in hundreds of ms at best:
 * waiting longer on the cache than a miss would cost is waste.
 */
export const DEFAULT_RESPONSE_CACHE_TIMEOUT_MS = 250;

/** Ms the cache is left alone after a failure by default (lookups are misses meanwhile). */
export const DEFAULT_RESPONSE_CACHE_RETRY_MS = 5000;

/** What the gateway does without the cache meanwhile, for the store-failure log (`log-store-failure.ts`). */
export const RESPONSE_CACHE_CONSEQUENCE = (failure: StoreFailure): string =>
  `It is left alone for ${failure.retryAfterSeconds} s: calls meanwhile go to their upstream, and their answers are not stored.`;

export interface ResponseCacheGuardOptions {
  /** Ms one command may take before it counts as a failure. */
  timeoutMs: number;
  /** Ms the cache is left alone after a failure (lookups are misses meanwhile). */
  retryMs: number;
  /** Told of each failed or timed-out command (not of those skipped during the back-off). */
  onFailure?: (failure: StoreFailure) => void;
}

const MISS: CacheLookup = { lock: 'none' };

/** A custom store's reply as the contract says it, whatever it returned. */
function checkedLookup(reply: unknown): CacheLookup {
  if (typeof reply !== 'object' || reply === null) return MISS;
  const { entry, ageMs, lock } = reply as Partial<Record<keyof CacheLookup, unknown>>;
  if (typeof entry === 'string') return { entry, ageMs: typeof ageMs === 'number' && ageMs > 0 ? ageMs : 0, lock: 'none' };
  return { lock: lock === 'lead' || lock === 'wait' ? lock : 'none' };
}

/**
 * Wraps `store` so that none of its failures is the caller's. `bytesHeld`
 * (for the metrics) is bounded too, and rejects with the `StoreFailure`
 * when the store fails: the collector leaves the sample out.
 */
export function guardResponseCache(store: ResponseCacheStore, options: ResponseCacheGuardOptions): ResponseCacheStore {
  const guard = createStoreGuard({
    name: RESPONSE_CACHE_NAME,
    timeoutMs: options.timeoutMs,
    retryMs: options.retryMs,
    ...(options.onFailure ? { onFailure: options.onFailure } : {}),
  });
  const bytesHeld = store.bytesHeld;
  const drop = (): void => undefined;
  // A timer can fire a little before the back-off it waits for is over (or a later failure extends it):
  // the release then waits for what is left, a few times at most.
  const releaseLater = (key: string, token: string, delayMs = options.retryMs, tries = 4): void => {
    // Unref'd: a pending retry never keeps a process alive; if the store is still down, the lock expires on its own.
    setTimeout(() => {
      const left = guard.backoffLeft();
      if (left > 0 && tries > 1) return releaseLater(key, token, left + 1, tries - 1);
      guard.run('release', () => store.release(key, token)).then(drop, drop);
    }, delayMs).unref();
  };

  return {
    ...(store.ttlSeconds === undefined ? {} : { ttlSeconds: store.ttlSeconds }),

    lookup(key: string, lookup: CacheLookupOptions): Promise<CacheLookup> {
      return guard.run('lookup', () => store.lookup(key, lookup)).then(checkedLookup, () => MISS);
    },

    fill(key, entry, fill) {
      return guard.run('fill', () => store.fill(key, entry, fill)).then(drop, () => releaseLater(key, fill.token));
    },

    release(key, token) {
      return guard.run('release', () => store.release(key, token)).then(drop, () => releaseLater(key, token));
    },

    ...(bytesHeld === undefined ? {} : { bytesHeld: () => guard.run('bytesHeld', async () => bytesHeld.call(store)) }),
  };
}
