/**
 * The in-process {@link ResponseCacheStore}: one gateway instance, gone with
 * the process. Bounded by bytes (least recently used first) and by age;
 * there is no timer, so the cache never keeps a process alive.
 */
import { assertOptions } from '../options/parse-options.js';
import { memoryResponseCacheOptionsSchema } from '../options/cache-store-schema.js';
import type { CacheLookup, CacheLookupOptions, ResponseCacheStore } from './cache-types.js';
import type { MemoryResponseCacheOptions } from './response-cache-options.js';

/**
 * Bytes kept at most by default: 64 MiB. A cached chat answer is a few KB
 * (a long one with tool calls, tens of KB), so this holds thousands of
 * answers, a modest share of a server's memory.
 */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** An entry larger than this share of `maxBytes` is not kept: one answer must not push out most of the others. */
const LARGEST_SHARE = 8;

interface Entry {
  value: string;
  bytes: number;
  createdAt: number;
  expiresAt: number;
}

interface FillLock {
  token: string;
  expiresAt: number;
}

/**
 * Creates an in-memory {@link ResponseCacheStore}.
 *
 * - Entries are kept until their TTL (the `ttlSeconds` of each fill) has
 *   passed; an expired entry reads as a miss and is dropped then, or when
 *   it comes up as the least recently used.
 * - When a fill passes `maxBytes` (UTF-8 bytes of the entries), the least
 *   recently used entries are dropped until it fits; an entry larger than
 *   `maxBytes / 8` is not kept (its fill still releases the lock). Every
 *   operation is O(1) (a `Map` kept in recency order), but for the entries
 *   a fill drops.
 * - Fill locks live here too, with the same contract as `redisResponseCache`:
 *   the first lookup that misses with `lockMs > 0` leads, the others wait
 *   until the leader fills or releases, or the lock expires after `lockMs`;
 *   `fill` and `release` remove the lock only while it holds their token.
 * - Ages come from this cache's own clock (`now`).
 *
 * @throws GatewayConfigError when an option is wrong (`maxBytes` under 64 KiB, a `ttlSeconds` that looks like ms, ...).
 * @example
 * createGateway({ auth, routes, cache: { store: memoryResponseCache({ maxBytes: 256 * 1024 * 1024 }) } });
 */
export function memoryResponseCache(options: MemoryResponseCacheOptions = {}): ResponseCacheStore {
  assertOptions(memoryResponseCacheOptionsSchema, options, 'memoryResponseCache');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const largest = maxBytes / LARGEST_SHARE;
  const clock = options.now ?? Date.now;
  /** Least recently used first. */
  const entries = new Map<string, Entry>();
  const locks = new Map<string, FillLock>();
  let totalBytes = 0;

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
  };

  const evict = (now: number): void => {
    for (const [key, entry] of entries) {
      if (totalBytes <= maxBytes && entry.expiresAt > now) return;
      remove(key);
    }
  };

  const releaseIfHeld = (key: string, token: string): void => {
    if (locks.get(key)?.token === token) locks.delete(key);
  };

  /** The live entry under `key`, or undefined (an expired one is dropped). */
  const live = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry !== undefined && entry.expiresAt <= now) {
      remove(key);
      return undefined;
    }
    return entry;
  };

  const lock = (key: string, lookup: CacheLookupOptions, now: number): CacheLookup => {
    if (lookup.lockMs <= 0) return { lock: 'none' };
    const held = locks.get(key);
    if (held !== undefined && held.expiresAt > now) return { lock: 'wait' };
    locks.delete(key);
    // Locks whose leader never came back go as they reach the front (each once: O(1) per lock).
    for (const [oldest, { expiresAt }] of locks) {
      if (expiresAt > now) break;
      locks.delete(oldest);
    }
    locks.set(key, { token: lookup.token, expiresAt: now + lookup.lockMs });
    return { lock: 'lead' };
  };

  return {
    ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),

    lookup(key, lookup) {
      const now = clock();
      const entry = live(key, now);
      const ageMs = entry === undefined ? 0 : Math.max(0, now - entry.createdAt);
      if (entry === undefined || (lookup.maxAgeMs !== undefined && ageMs > lookup.maxAgeMs)) return Promise.resolve(lock(key, lookup, now));
      // Used: now the most recently used.
      entries.delete(key);
      entries.set(key, entry);
      return Promise.resolve({ entry: entry.value, ageMs, lock: 'none' });
    },

    fill(key, value, { ttlSeconds, token }) {
      const now = clock();
      releaseIfHeld(key, token);
      // A fill replaces: the older answer goes even when the new one is not kept.
      remove(key);
      const bytes = Buffer.byteLength(value, 'utf8');
      if (!(ttlSeconds > 0) || bytes > largest) return Promise.resolve();
      entries.set(key, { value, bytes, createdAt: now, expiresAt: now + Math.ceil(ttlSeconds) * 1000 });
      totalBytes += bytes;
      evict(now);
      return Promise.resolve();
    },

    release(key, token) {
      releaseIfHeld(key, token);
      return Promise.resolve();
    },

    bytesHeld: () => totalBytes,
  };
}
