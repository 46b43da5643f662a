/**
 * The options of the two built-in response caches, in one place: the
 * stores and the schema that checks their options both import them.
 */
import type { IoRedisLike, NodeRedisLike } from '../redis/script-runner.js';

/** Options of `memoryResponseCache`. */
export interface MemoryResponseCacheOptions {
  /**
   * Bytes of entries kept at most, counted as each entry's UTF-8 size. When
   * a fill passes it, the least recently used entries go first. An entry
   * larger than `maxBytes / 8` is not kept, so that one answer never pushes
   * out most of the others. At least 64 KiB. Default 64 MiB.
   */
  maxBytes?: number;
  /** Seconds an entry lives, when the gateway's `cache.ttlSeconds` is unset. Default: the gateway's default. */
  ttlSeconds?: number;
  /** The clock, ms since the epoch (ages, expiry, fill locks). Default `Date.now`. */
  now?: () => number;
}

/** Options of `redisResponseCache`. */
export interface RedisResponseCacheOptions {
  /** A connected ioredis (`new Redis(url)`) or node-redis (`await createClient({ url }).connect()`) client; a Cluster client works too. */
  client: IoRedisLike | NodeRedisLike;
  /** Seconds an entry lives, when the gateway's `cache.ttlSeconds` is unset. Default: the gateway's default. */
  ttlSeconds?: number;
  /** Prefix of every key, without `{` or `}`. Default `'modelgate:cache:'`. */
  prefix?: string;
  /**
   * Bytes of entries one owner (a principal; under `scope: 'shared'`, every
   * caller together) may hold, counted as each entry's UTF-8 size for its
   * TTL. A fill that would pass it is not stored: the answer is still
   * served, and the same request stays a miss until the owner's older
   * entries expire. One principal then never fills Redis at the others'
   * expense. At least 64 KiB; `0` or `Infinity` turns it off. Default 64 MiB.
   */
  maxBytesPerOwner?: number;
}
