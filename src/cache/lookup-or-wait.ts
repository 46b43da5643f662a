/**
 * A lookup that waits out another instance's fill: while a store shared by
 * instances says another holds the key's fill lock (`lock: 'wait'`), it
 * polls (50–250 ms apart, with jitter so waiters spread out) until the
 * entry appears, the lock is gone (this caller then takes it, or goes
 * without), `waitMs` passed or the client left.
 *
 * @internal
 */
import type { AbortSource } from '../signals/abort-source.js';
import type { CacheLookup, ResponseCacheStore } from './cache-types.js';

const POLL_MIN_MS = 50;
const POLL_SPREAD_MS = 200;

export interface LookupOrWaitOptions {
  token: string;
  lockMs: number;
  maxAgeMs?: number;
  /** Longest wait for another instance's fill, in ms. */
  waitMs: number;
  /** The client: its leaving ends the wait. */
  signal: AbortSource;
}

function pause(ms: number, signal: AbortSource): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The store's lookup, polled while another instance fills the key; `lock: 'none'` when the wait ran out. */
export async function lookupOrWait(store: ResponseCacheStore, key: string, options: LookupOrWaitOptions): Promise<CacheLookup> {
  const { signal } = options;
  const lookupOptions = { token: options.token, lockMs: options.lockMs, ...(options.maxAgeMs !== undefined ? { maxAgeMs: options.maxAgeMs } : {}) };
  const until = Date.now() + options.waitMs;
  let looked = await store.lookup(key, lookupOptions);
  while (looked.entry === undefined && looked.lock === 'wait') {
    const left = until - Date.now();
    if (left <= 0 || signal.aborted) return { lock: 'none' };
    await pause(Math.min(left, POLL_MIN_MS + Math.random() * POLL_SPREAD_MS), signal);
    if (signal.aborted) return { lock: 'none' };
    looked = await store.lookup(key, lookupOptions);
  }
  return looked;
}
