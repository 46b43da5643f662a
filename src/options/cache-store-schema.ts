/**
 * The options of the two response caches, `memoryResponseCache` and
 * `redisResponseCache`, and the time to live the gateway's `cache` option
 * checks the same way.
 *
 * @internal
 */
import type { z } from 'zod';
import type { MemoryResponseCacheOptions, RedisResponseCacheOptions } from '../cache/response-cache-options.js';
import { type Assert, fn, got, int, optionsObject, type SameOptions, shaped } from './option-schemas.js';
import { redisClientSchema } from './redis-client-schema.js';

/** The longest time to live: 30 days. Longer is more likely milliseconds than a wish. */
export const MAX_CACHE_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The smallest `maxBytes` of the memory cache: with entries up to an eighth of it, 8 KiB answers still fit. */
export const MIN_MEMORY_CACHE_BYTES = 64 * 1024;

/** A whole number of minutes in ms (60,000, 300,000, 3,600,000 ...): what a TTL in ms usually is. */
const looksLikeMs = (value: number): boolean => value >= 60_000 && value % 60_000 === 0;

function ttlMessage(value: unknown): string {
  const meaning = 'seconds a cached answer lives';
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    return `must be a whole number of seconds from 1 to ${MAX_CACHE_TTL_SECONDS} (got ${got(value)}): ${meaning}`;
  }
  const asSeconds = `if ${value} is in ms, give ${Math.max(1, Math.round(value / 1000))}`;
  if (looksLikeMs(value)) return `looks like milliseconds (got ${value}): \`ttlSeconds\` is in seconds; ${asSeconds}`;
  return `must be at most ${MAX_CACHE_TTL_SECONDS} (30 days) (got ${value}): ${meaning}; ${asSeconds}`;
}

/**
 * Seconds a cached answer lives: a whole number from 1 to 30 days. A whole
 * number of minutes in ms (60000 and up, a multiple of 60000) is refused as
 * milliseconds, the common slip with this option.
 */
export const cacheTtlSecondsSchema = shaped<number>(
  (value) => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CACHE_TTL_SECONDS && !looksLikeMs(value),
  ttlMessage,
);

const memoryShape = optionsObject(
  {
    maxBytes: int(
      MIN_MEMORY_CACHE_BYTES,
      Number.MAX_SAFE_INTEGER,
      'the most bytes of entries kept; an entry over maxBytes / 8 is not kept, so a smaller cache holds almost nothing (default 64 MiB)',
    ).optional(),
    ttlSeconds: cacheTtlSecondsSchema.optional(),
    now: fn<NonNullable<MemoryResponseCacheOptions['now']>>('a clock, `() => ms since the epoch`').optional(),
  },
  'a `memoryResponseCache`',
  '`{ maxBytes?, ttlSeconds?, now? }`',
);

/** `memoryResponseCache(options)`. */
export const memoryResponseCacheOptionsSchema = memoryShape.optional();

/** `maxBytesPerOwner`: 0 or `Infinity` (off), else a whole number of bytes from 64 KiB (a smaller quota stores next to nothing). */
const perOwnerQuotaSchema = shaped<number>(
  (value) => value === 0 || value === Infinity || (typeof value === 'number' && Number.isSafeInteger(value) && value >= MIN_MEMORY_CACHE_BYTES),
  (value) =>
    `must be 0 or Infinity (no quota), or a whole number of bytes from ${MIN_MEMORY_CACHE_BYTES} (64 KiB) (got ${got(value)}): the most bytes of entries one owner (principal) holds in Redis (default 64 MiB)`,
);

const redisShape = optionsObject(
  {
    client: redisClientSchema,
    ttlSeconds: cacheTtlSecondsSchema.optional(),
    prefix: shaped<string>(
      (value) => typeof value === 'string' && !value.includes('{') && !value.includes('}'),
      (value) => `must be a string without { or } (the cache puts a Redis Cluster hash tag after it) (got ${typeof value === 'string' ? 'a string with a brace' : got(value)})`,
    ).optional(),
    maxBytesPerOwner: perOwnerQuotaSchema.optional(),
  },
  'a `redisResponseCache`',
  '`{ client, ttlSeconds?, prefix?, maxBytesPerOwner? }`',
  {
    maxBytes:
      'is not a `redisResponseCache` option: Redis keeps each entry for its TTL; bound what one principal holds with `maxBytesPerOwner`, and Redis as a whole in Redis itself (`maxmemory` with a `volatile-lru` or `allkeys-lru` policy)',
  },
);

/** `redisResponseCache(options)`. */
export const redisResponseCacheOptionsSchema = redisShape;

type _Memory = Assert<SameOptions<z.input<typeof memoryShape>, MemoryResponseCacheOptions>>;
type _Redis = Assert<SameOptions<z.input<typeof redisShape>, RedisResponseCacheOptions>>;
