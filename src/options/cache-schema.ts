/**
 * The gateway's `cache` option and a route's `cache: false`.
 *
 * @internal
 */
import { z } from 'zod';
import { type CacheOptions, MAX_CACHE_TTL_SECONDS } from '../cache/cache-options.js';
import type { ResponseCacheStore } from '../cache/cache-types.js';
import { type Assert, either, flag, got, int, isObject, MAX_TIMER_MS, oneOf, optionsObject, type SameOptions, shaped, timerMs } from './option-schemas.js';

const STORE_METHODS = ['lookup', 'fill', 'release'] as const;
const MAKE_A_STORE = '`memoryResponseCache()` or `redisResponseCache({ client })`';
const CACHE_SHAPE = '`{ store, scope?, models?, ttlSeconds?, requestControls?, waitMs?, lockMs?, storeTimeoutMs?, storeRetryMs? }`';

function isCacheStore(value: unknown): value is ResponseCacheStore {
  return isObject(value) && STORE_METHODS.every((method) => typeof value[method] === 'function');
}

/** True for what looks like a `ResponseStore` (`/v1/responses`), the store most likely given by mistake. */
function isResponseStore(value: unknown): boolean {
  return isObject(value) && typeof value.put === 'function' && typeof value.getItem === 'function';
}

/**
 * `ttlSeconds`, here and on a custom store: whole seconds up to 30 days. A
 * larger value is most often ms given for seconds, so the message says which
 * number of seconds that would be.
 */
const ttlSecondsSchema = shaped<number>(
  (value) => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CACHE_TTL_SECONDS,
  (value) => {
    const range = `must be a whole number of seconds from 1 to ${MAX_CACHE_TTL_SECONDS} (30 days) (got ${got(value)})`;
    if (typeof value !== 'number' || !(value > MAX_CACHE_TTL_SECONDS)) return range;
    const asSeconds = Math.round(value / 1000);
    const hint = asSeconds >= 1 && asSeconds <= MAX_CACHE_TTL_SECONDS ? `: ms given for seconds? ${value} ms is ${asSeconds}` : '';
    return `${range}${hint}; the time to live is in seconds (3600 for an hour)`;
  },
);

const storeSchema = either<ResponseCacheStore>((value) => {
  if (isCacheStore(value)) return value.ttlSeconds === undefined ? undefined : z.looseObject({ ttlSeconds: ttlSecondsSchema });
  if (value === undefined) return `is missing: give ${MAKE_A_STORE}`;
  const factory = factoryName(value);
  if (factory !== undefined) return `is the function ${factory} itself: call it, \`store: ${factory}(...)\``;
  if (isResponseStore(value)) return `is a response store (for \`/v1/responses\`, the \`responseStore\` option), not a response cache: give ${MAKE_A_STORE}`;
  return `must be a response cache store, an object with ${STORE_METHODS.join(', ')} (${MAKE_A_STORE}) (got ${got(value)})`;
});

/** The name of a store factory given for the store it makes (`store: memoryResponseCache`), else undefined. */
function factoryName(value: unknown): string | undefined {
  return typeof value === 'function' && /^(memory|redis)ResponseCache$/.test(value.name) ? value.name : undefined;
}

const modelEntrySchema = z
  .string({ error: (issue) => `must be a model id or a glob such as 'gpt-4o*', a string (got ${got(issue.input)})` })
  .min(1, { error: () => "is an empty string, which matches no model: give a model id or a glob ('*' for every model)" });

const modelsSchema = z
  .array(modelEntrySchema, { error: (issue) => `must be an array of model ids or globs, e.g. ['gpt-4o', 'local-*'] (got ${got(issue.input)})` })
  .readonly()
  .refine((models) => models.length > 0, { error: () => 'is empty, so no model would be cached: leave `models` out to cache every model, or leave `cache` out for no cache' });

export const cacheOptionsSchema = optionsObject(
  {
    store: storeSchema,
    scope: oneOf(['principal', 'shared'], "who an entry may answer: the principal whose call filled it (default), or every caller (`'shared'`)").optional(),
    models: modelsSchema.optional(),
    ttlSeconds: ttlSecondsSchema.optional(),
    requestControls: flag().optional(),
    waitMs: timerMs('how long identical requests wait for the first one to fill the entry').optional(),
    lockMs: timerMs('the fill lock’s lifetime on a shared store').optional(),
    storeTimeoutMs: int(1, MAX_TIMER_MS, 'ms to wait for one cache store command').optional(),
    storeRetryMs: int(0, MAX_TIMER_MS, 'ms to leave the cache store alone after a failure').optional(),
  },
  'a `cache`',
  CACHE_SHAPE,
);

/** The gateway's `cache`: the options object; the slips most likely (`true`, `false`, a store alone) each get their fix. */
export const cacheSchema = either<CacheOptions>((value) => {
  if (value === true) return `is true: give ${CACHE_SHAPE}, e.g. \`{ store: memoryResponseCache() }\``;
  if (value === false) return 'is false: leave `cache` out for no cache (`cache: false` belongs on a route, to keep its models out of the cache)';
  if (isCacheStore(value)) return `is a store: give it as \`cache: { store }\` (${CACHE_SHAPE})`;
  return cacheOptionsSchema;
});

/** A route's `cache`: only `false`, which keeps the route's models out of the gateway's cache. */
export const routeCacheSchema = either<false>((value) => {
  if (value === false) return undefined;
  if (value === true) return 'is true: a route takes only `cache: false` (to keep it out of the cache); the gateway’s `cache` option turns the cache on for every other route';
  if (isObject(value)) return 'is an object: the cache’s options go on the gateway (`cache: { store, ... }`); a route takes only `cache: false`';
  return `must be false, to keep the route out of the gateway’s cache, or left out (got ${got(value)})`;
});

type _CacheOptions = Assert<SameOptions<z.input<typeof cacheOptionsSchema>, CacheOptions>>;
