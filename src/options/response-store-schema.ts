/**
 * The options of the two response stores, `memoryResponseStore` and
 * `redisResponseStore`.
 *
 * @internal
 */
import type { z } from 'zod';
import type { MemoryResponseStoreOptions, RedisResponseStoreOptions } from '../responses/response-store-options.js';
import { type Assert, fn, got, int, optionsObject, type SameOptions, shaped } from './option-schemas.js';
import { redisClientSchema } from './redis-client-schema.js';

const ttlMs = int(1, Number.MAX_SAFE_INTEGER, 'ms a stored response lives after it is written');

const memoryShape = optionsObject(
  {
    maxResponses: int(1, Number.MAX_SAFE_INTEGER, 'the most responses kept').optional(),
    maxBytes: int(1, Number.MAX_SAFE_INTEGER, 'the most bytes of JSON kept').optional(),
    ttlMs: ttlMs.optional(),
    now: fn<NonNullable<MemoryResponseStoreOptions['now']>>('a clock, `() => ms since the epoch`').optional(),
  },
  'a `memoryResponseStore`',
  '`{ maxResponses?, maxBytes?, ttlMs?, now? }`',
);

/** `memoryResponseStore(options)`. */
export const memoryResponseStoreOptionsSchema = memoryShape.optional();

const redisShape = optionsObject(
  {
    client: redisClientSchema,
    ttlMs: ttlMs.optional(),
    maxResponsesPerOwner: int(1, Number.MAX_SAFE_INTEGER, 'the most responses one owner (principal) keeps').optional(),
    maxBytesPerOwner: int(1, Number.MAX_SAFE_INTEGER, 'the most bytes of JSON one owner (principal) keeps').optional(),
    prefix: shaped<string>(
      (value) => typeof value === 'string' && !value.includes('{') && !value.includes('}'),
      (value) => `must be a string without { or } (the store puts a Redis Cluster hash tag after it) (got ${typeof value === 'string' ? 'a string with a brace' : got(value)})`,
    ).optional(),
  },
  'a `redisResponseStore`',
  '`{ client, ttlMs?, prefix?, maxResponsesPerOwner?, maxBytesPerOwner? }`',
);

/** `redisResponseStore(options)`. */
export const redisResponseStoreOptionsSchema = redisShape;

type _Memory = Assert<SameOptions<z.input<typeof memoryShape>, MemoryResponseStoreOptions>>;
type _Redis = Assert<SameOptions<z.input<typeof redisShape>, RedisResponseStoreOptions>>;
