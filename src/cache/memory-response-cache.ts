/**
 * The in-process {@link ResponseCacheStore}: one gateway instance, gone with
 * the process. Bounded by bytes (least recently used first) and by age;
 * there is no timer, so the cache never keeps a process alive.
 */
import { assertOptions } from '../options/parse-options.js';
import { memoryResponseCacheOptionsSchema } from '../options/cache-store-schema.js';
import { largestOwner } from '../responses/largest-owner.js';
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
  owner: string;
}

/** What one owner keeps: its entries by key, least recently used first, and their bytes. */
interface Holding {
  entries: Map<string, Entry>;
  bytes: number;
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
 * - Fairness: when a fill passes `maxBytes` (UTF-8 bytes of the entries),
 *   the least recently used entry of the owner holding the most bytes is
 *   dropped, until it fits (the owner of a fill: its `owner`, the principal
 *   under `scope: 'principal'`). One principal sending many distinct
 *   requests then drops its own entries once it holds more than any other,
 *   never another's. An entry larger than `maxBytes / 8` is not kept (its
 *   fill still releases the lock). A hit is O(1) (each owner's `Map` kept in
 *   recency order); a fill is O(log owners) (a max-heap of owners by
 *   bytes), plus the entries it drops.
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
  /** Every entry, in the order it was filled: expired ones are dropped from the front. */
  const entries = new Map<string, Entry>();
  const holdings = new Map<string, Holding>();
  const largestHolder = largestOwner();
  const locks = new Map<string, FillLock>();
  let totalBytes = 0;

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
    const holding = holdings.get(entry.owner)!;
    holding.entries.delete(key);
    holding.bytes -= entry.bytes;
    if (holding.entries.size === 0) holdings.delete(entry.owner);
    largestHolder.set(entry.owner, holding.bytes);
  };

  const add = (key: string, entry: Entry): void => {
    entries.set(key, entry);
    totalBytes += entry.bytes;
    let holding = holdings.get(entry.owner);
    if (holding === undefined) holdings.set(entry.owner, (holding = { entries: new Map(), bytes: 0 }));
    holding.entries.set(key, entry);
    holding.bytes += entry.bytes;
    largestHolder.set(entry.owner, holding.bytes);
  };

  const evict = (now: number): void => {
    // Expired entries first, oldest fills first (each dropped once: O(1) per entry over time).
    for (const [key, entry] of entries) {
      if (entry.expiresAt > now) break;
      remove(key);
    }
    while (totalBytes > maxBytes) {
      const owner = largestHolder.top();
      const victim = owner === undefined ? undefined : holdings.get(owner)?.entries.keys().next().value;
      if (victim === undefined) return;
      remove(victim);
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
      // Used: now its owner's most recently used.
      const own = holdings.get(entry.owner)!.entries;
      own.delete(key);
      own.set(key, entry);
      return Promise.resolve({ entry: entry.value, ageMs, lock: 'none' });
    },

    fill(key, value, { ttlSeconds, token, owner = '' }) {
      const now = clock();
      releaseIfHeld(key, token);
      // A fill replaces: the older answer goes even when the new one is not kept.
      remove(key);
      const bytes = Buffer.byteLength(value, 'utf8');
      if (!(ttlSeconds > 0) || bytes > largest) return Promise.resolve();
      add(key, { value, bytes, createdAt: now, expiresAt: now + Math.ceil(ttlSeconds) * 1000, owner });
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
