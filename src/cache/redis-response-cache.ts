/**
 * A {@link ResponseCacheStore} in Redis, shared by every gateway instance:
 * an answer one instance stored answers the same request on any other, and
 * the fill lock lets one instance call the upstream while the others wait.
 * Works with the client you already have: ioredis or node-redis (`redis`),
 * single node or Cluster.
 */
import { createHash } from 'node:crypto';
import { assertOptions } from '../options/parse-options.js';
import { redisResponseCacheOptionsSchema } from '../options/cache-store-schema.js';
import { scriptRunner, scriptSha } from '../redis/script-runner.js';
import { markShared } from '../shared-store.js';
import type { CacheLookup, ResponseCacheStore } from './cache-types.js';
import {
  BYTES_ADD_SCRIPT,
  BYTES_HELD_SCRIPT,
  FILL_SCRIPT,
  LOOKUP_SCRIPT,
  OWNER_RESERVE_SCRIPT,
  OWNER_RETURN_SCRIPT,
  RELEASE_SCRIPT,
} from './redis-cache-scripts.js';
import type { RedisResponseCacheOptions } from './response-cache-options.js';

const LOOKUP_SHA = scriptSha(LOOKUP_SCRIPT);
const FILL_SHA = scriptSha(FILL_SCRIPT);
const RELEASE_SHA = scriptSha(RELEASE_SCRIPT);
const BYTES_ADD_SHA = scriptSha(BYTES_ADD_SCRIPT);
const BYTES_HELD_SHA = scriptSha(BYTES_HELD_SCRIPT);
const OWNER_RESERVE_SHA = scriptSha(OWNER_RESERVE_SCRIPT);
const OWNER_RETURN_SHA = scriptSha(OWNER_RETURN_SCRIPT);

/** The default key prefix. */
export const DEFAULT_CACHE_PREFIX = 'modelgate:cache:';

/**
 * Bytes of entries one owner may hold by default: 64 MiB, the memory
 * cache's whole default room. Thousands of answers of a few KB; one
 * principal sending distinct requests at any rate holds no more.
 */
export const DEFAULT_CACHE_BYTES_PER_OWNER = 64 * 1024 * 1024;

/** The Redis keys of one cache key. */
export interface RedisCacheKeys {
  /** The entry: a hash of the answer, its time and its expiry minute. */
  entry: string;
  /** The fill lock: the leader's token, with the lock's expiry. */
  lock: string;
}

/**
 * The keys of one cache key: `{prefix}{<key>}` and `{prefix}{<key>}:lock`.
 * The key (a hex digest; `%`, `{` and `}` escaped in anything else) is the
 * hash tag of both, so a script naming them runs on one Cluster node, and
 * entries spread over every slot.
 *
 * @internal
 */
export function redisCacheKeys(prefix: string, key: string): RedisCacheKeys {
  const tag = key.replace(/[%{}]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  const entry = `${prefix}{${tag}}`;
  return { entry, lock: `${entry}:lock` };
}

/** The key of the byte count (no brace, so no entry key is ever named so). @internal */
export function redisCacheBytesKey(prefix: string): string {
  return `${prefix}bytes`;
}

/**
 * The key of one owner's byte count: `{prefix}owner:{<SHA-256 of the
 * owner>}`. Hashed, so that a principal id of any length or character
 * makes one short key of its own slot, and never appears in Redis.
 *
 * @internal
 */
export function redisCacheOwnerKey(prefix: string, owner: string): string {
  return `${prefix}owner:{${createHash('sha256').update(owner, 'utf8').digest('hex')}}`;
}

function parseLookup(reply: unknown): CacheLookup {
  const [kind, entry, age] = Array.isArray(reply) ? (reply as unknown[]) : [];
  if (kind === 'hit' && typeof entry === 'string') return { entry, ageMs: Math.max(0, Number(age) || 0), lock: 'none' };
  return { lock: kind === 'lead' || kind === 'wait' ? kind : 'none' };
}

/**
 * Creates a Redis-backed {@link ResponseCacheStore}.
 *
 * - `{prefix}{<key>}` holds an entry (a hash: the answer, when it was
 *   stored by Redis's clock, its expiry minute) and expires after the
 *   fill's TTL, by Redis. Ages come from Redis's `TIME`: one clock for
 *   every instance.
 * - `{prefix}{<key>}:lock` is the fill lock, `SET NX PX`: at most one
 *   instance calls the upstream for a key per lock period. `fill` and
 *   `release` delete it only while it holds their token, so a leader that
 *   came back after its lock expired never frees another's.
 * - `{prefix}bytes` counts bytes for `bytesHeld`: a fill adds its entry's
 *   bytes under the minute the entry expires (and takes off those of the
 *   entry it replaced), and `bytesHeld` sums the minutes still to come.
 *   One small script call per fill. It is an upper bound: an entry counts
 *   up to a minute past its expiry, and entries Redis evicted under memory
 *   pressure (or deleted by hand) count until their expiry. Every entry
 *   counts as the UTF-8 size of its answer (Redis's own overhead is not in
 *   it).
 * - Fairness: `{prefix}owner:{<hash of the owner>}` counts the bytes of one
 *   owner's entries (the principal's under `scope: 'principal'`) the same
 *   way, by the minute they expire. Before a fill, one script call adds the
 *   entry's bytes to its owner's count, or refuses when that would pass
 *   `maxBytesPerOwner`: the fill is then skipped (the lock released, the
 *   answer still served). The check is atomic per owner, so concurrent
 *   fills never pass the quota together; the count is an upper bound (an
 *   entry counts up to a minute past its expiry, and until its expiry when
 *   Redis evicted it or it was deleted by hand), so an owner may be refused
 *   up to a minute early, never let past. A replaced entry's bytes are given
 *   back to its owner after the fill (one more call, only on a refill).
 *
 * Every command is one script call naming keys of one hash slot, so the
 * cache works unchanged with a Cluster client (a fill under a quota is
 * three or four such calls: the owner's count, the entry, the byte count,
 * and on a refill the replaced entry's owner). Keep `{` and `}` out of
 * `prefix` (checked).
 *
 * @throws GatewayConfigError when an option is wrong (no client, a `ttlSeconds` that looks like ms, ...).
 * @example
 * import { Redis } from 'ioredis';
 * createGateway({ auth, routes, cache: { store: redisResponseCache({ client: new Redis(process.env.REDIS_URL!), ttlSeconds: 3600 }) } });
 */
export function redisResponseCache(options: RedisResponseCacheOptions): ResponseCacheStore {
  assertOptions(redisResponseCacheOptionsSchema, options, 'redisResponseCache');
  const run = scriptRunner(options.client, 'redisResponseCache');
  const prefix = options.prefix ?? DEFAULT_CACHE_PREFIX;
  const bytesKey = redisCacheBytesKey(prefix);
  const quota = options.maxBytesPerOwner ?? DEFAULT_CACHE_BYTES_PER_OWNER;
  const quotaOn = quota > 0 && Number.isFinite(quota);

  const release = async (key: string, token: string): Promise<void> => {
    await run(RELEASE_SCRIPT, RELEASE_SHA, [redisCacheKeys(prefix, key).lock], [token]);
  };

  return markShared({
    ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),

    async lookup(key, { maxAgeMs, lockMs, token }) {
      const { entry, lock } = redisCacheKeys(prefix, key);
      const oldest = maxAgeMs === undefined ? '-1' : String(Math.max(0, Math.floor(maxAgeMs)));
      const reply = await run(LOOKUP_SCRIPT, LOOKUP_SHA, [entry, lock], [oldest, String(Math.max(0, Math.ceil(lockMs))), token]);
      return parseLookup(reply);
    },

    async fill(key, value, { ttlSeconds, token, owner = '' }) {
      const ttl = Math.ceil(ttlSeconds);
      if (!(ttl >= 1)) return release(key, token);
      let ownerKey = '';
      let ownerBucket = '0';
      if (quotaOn) {
        ownerKey = redisCacheOwnerKey(prefix, owner);
        const reserved = Number(await run(OWNER_RESERVE_SCRIPT, OWNER_RESERVE_SHA, [ownerKey], [String(ttl), String(Buffer.byteLength(value, 'utf8')), String(quota)])) || 0;
        // Past the owner's quota: not stored, and the identical requests waiting on the lock go upstream themselves.
        if (reserved === 0) return release(key, token);
        ownerBucket = String(reserved);
      }
      const { entry, lock } = redisCacheKeys(prefix, key);
      const reply = await run(FILL_SCRIPT, FILL_SHA, [entry, lock], [value, String(ttl), token, ownerKey, ownerBucket]);
      const [bucket, bytes, replacedBucket, replacedBytes, replacedOwner, replacedOwnerBucket] = Array.isArray(reply) ? (reply as unknown[]) : [];
      if (bucket === undefined) return;
      const count = (each: unknown): string => String(Number(each) || 0);
      await run(BYTES_ADD_SCRIPT, BYTES_ADD_SHA, [bytesKey], [count(bucket), count(bytes), count(replacedBucket), count(replacedBytes)]);
      if (typeof replacedOwner === 'string' && replacedOwner !== '' && Number(replacedBytes) > 0) {
        await run(OWNER_RETURN_SCRIPT, OWNER_RETURN_SHA, [replacedOwner], [count(replacedOwnerBucket), count(replacedBytes)]);
      }
    },

    release,

    async bytesHeld() {
      return Math.max(0, Number(await run(BYTES_HELD_SCRIPT, BYTES_HELD_SHA, [bytesKey], [])) || 0);
    },
  });
}
