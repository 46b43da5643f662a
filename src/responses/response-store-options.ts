/**
 * The options of the two built-in response stores, in one place: the
 * stores and their option schemas both import them from here.
 */
import type { IoRedisLike, NodeRedisLike } from '../redis/script-runner.js';

/** Options of `memoryResponseStore`. */
export interface MemoryResponseStoreOptions {
  /**
   * Responses kept at most, all owners together. When full, the store drops
   * the least recently used response of the owner holding the largest part
   * of it (see `memoryResponseStore`). Default 10,000.
   */
  maxResponses?: number;
  /**
   * Bytes kept at most, all owners together, counted as the UTF-8 JSON size
   * of what each record keeps (a response that continues another keeps its
   * new items and a link, not the conversation again). When full, as for
   * `maxResponses`. A record larger than this is not stored (its `put`
   * resolves, a later `get` misses). Default 64 MiB.
   */
  maxBytes?: number;
  /** Ms a response lives after its `put`, or after a later response of its conversation is stored (reads do not extend it). Default 24 hours. */
  ttlMs?: number;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** Options of `redisResponseStore`. */
export interface RedisResponseStoreOptions {
  /** A connected ioredis (`new Redis(url)`) or node-redis (`await createClient({ url }).connect()`) client; a Cluster client works too. */
  client: IoRedisLike | NodeRedisLike;
  /** Ms a response lives after its `put`, or after a later response of its conversation is stored (reads do not extend it). Default 24 hours. */
  ttlMs?: number;
  /** Prefix of every key, without `{` or `}`. Default `'modelgate:responses:'`. */
  prefix?: string;
  /**
   * Responses one owner (principal) may keep at once. A request that asks to
   * store a response while its owner keeps this many is refused (400,
   * `response_store_quota_exceeded`) before the upstream is called; expired
   * and deleted responses free their place. Default 10,000.
   */
  maxResponsesPerOwner?: number;
  /**
   * Bytes (UTF-8 JSON of what the records keep) one owner may keep at once.
   * Refused as for `maxResponsesPerOwner` once the owner keeps this many or
   * more; the response that crosses the line is kept. Default 64 MiB.
   */
  maxBytesPerOwner?: number;
}
