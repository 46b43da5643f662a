/**
 * The options of `redisHealthStore` and the gateway's `routing` option.
 *
 * @internal
 */
import type { z } from 'zod';
import { type CooldownOptions, MAX_COOLDOWN_WINDOW } from '../routing/cooldown-options.js';
import type { HealthStore } from '../routing/health-store.js';
import type { RedisHealthStoreOptions } from '../routing/redis-health-store-options.js';
import type { RoutingOptions } from '../routing/routing-options.js';
import { type Assert, fn, got, int, isObject, optionsObject, type SameOptions, MAX_TIMER_MS, shaped } from './option-schemas.js';
import { redisClientSchema } from './redis-client-schema.js';
import { routeOptionsGivenElsewhere } from './route-schema.js';

const redisShape = optionsObject(
  {
    client: redisClientSchema,
    prefix: shaped<string>(
      (value) => typeof value === 'string',
      (value) => `must be a string (got ${got(value)})`,
    ).optional(),
    refreshMs: int(10, 3_600_000, 'ms between two reads of the shared cooldowns').optional(),
    onError: fn<NonNullable<RedisHealthStoreOptions['onError']>>('`(error) => void`').optional(),
  },
  'a `redisHealthStore`',
  '`{ client, prefix?, refreshMs?, onError? }`',
);

/** `redisHealthStore(options)`. */
export const redisHealthStoreOptionsSchema = redisShape;

const storeSchema = shaped<HealthStore | false>(
  (value) => value === false || (isObject(value) && typeof value.publish === 'function' && typeof value.subscribe === 'function' && typeof value.recover === 'function'),
  (value) => `must be a health store (\`redisHealthStore({ client })\`, \`memoryHealthStore()\`) or false to turn cooldowns off (got ${got(value)})`,
);

const cooldownShape = optionsObject(
  {
    failures: int(1, MAX_COOLDOWN_WINDOW, 'failed attempts among the last `window` that cool a target').optional(),
    window: int(1, MAX_COOLDOWN_WINDOW, 'attempts per target the failure rule looks back on').optional(),
    baseMs: int(0, MAX_TIMER_MS, 'ms of the first cooldown').optional(),
    maxMs: int(0, MAX_TIMER_MS, 'ms of the longest cooldown').optional(),
    probeTimeoutMs: int(1, MAX_TIMER_MS, 'ms a half-open probe may take before another may go').optional(),
  },
  'a `routing.cooldown`',
  '`{ failures?, window?, baseMs?, maxMs?, probeTimeoutMs? }`',
).superRefine((cooldown, ctx) => {
  if (cooldown.failures !== undefined && cooldown.window !== undefined && cooldown.failures > cooldown.window) {
    ctx.addIssue({
      code: 'custom',
      path: ['failures'],
      message: `is ${cooldown.failures}, more than \`window\` (${cooldown.window}): a target cools once \`failures\` of its last \`window\` attempts failed; lower \`failures\` or raise \`window\``,
    });
  }
});

/** The gateway's `routing` option: what is shared by every route. A route's own options given here point to `routes[i]`. */
export const routingSchema = optionsObject(
  { health: storeSchema.optional(), cooldown: cooldownShape.optional() },
  'a `routing`',
  '`{ health?, cooldown? }`',
  routeOptionsGivenElsewhere('a `routing` option (`routing` holds `health` and `cooldown`, shared by every route)'),
);

type _Redis = Assert<SameOptions<z.input<typeof redisShape>, RedisHealthStoreOptions>>;
type _Cooldown = Assert<SameOptions<z.input<typeof cooldownShape>, CooldownOptions>>;
type _Routing = Assert<SameOptions<z.input<typeof routingSchema>, RoutingOptions>>;
