/**
 * A {@link HealthStore} in Redis, shared by every gateway instance: a
 * target one instance sees go down is skipped by all. Works with the client
 * the limits and response stores use (ioredis or node-redis).
 *
 * No Redis call is made per request: each instance keeps deciding from its
 * own memory, publishes the cooldowns it starts (one script call each), and
 * reads everyone's every `refreshMs` (one script call per instance). An
 * instance therefore sees another's cooldown at most `refreshMs` (plus one
 * round trip) late. When Redis fails, instances go on with their own state.
 */
import { assertOptions } from '../options/parse-options.js';
import { redisHealthStoreOptionsSchema } from '../options/health-store-schema.js';
import { scriptRunner, scriptSha } from '../redis/script-runner.js';
import type { HealthStore, SharedCooldown } from './health-store.js';
import { PUBLISH_SCRIPT, READ_SCRIPT, RECOVER_SCRIPT } from './redis-health-scripts.js';
import { markShared } from '../shared-store.js';
import { StoreFailure } from '../store-guard.js';
import type { RedisHealthStoreOptions } from './redis-health-store-options.js';

export type { RedisHealthStoreOptions } from './redis-health-store-options.js';

const PUBLISH_SHA = scriptSha(PUBLISH_SCRIPT);
const READ_SHA = scriptSha(READ_SCRIPT);
const RECOVER_SHA = scriptSha(RECOVER_SCRIPT);

type Record = Omit<SharedCooldown, 'key' | 'remainingMs'>;

/** Redis did not answer in time (its client queues commands while it is away). */
class NoAnswer extends Error {}

function parseReply(reply: unknown): SharedCooldown[] {
  if (!Array.isArray(reply)) return [];
  const out: SharedCooldown[] = [];
  for (let i = 0; i + 2 < reply.length; i += 3) {
    const [key, remaining, json] = [reply[i], reply[i + 1], reply[i + 2]];
    if (typeof key !== 'string' || typeof json !== 'string') continue;
    try {
      const record = JSON.parse(json) as Partial<Record>;
      if (typeof record.upstream !== 'string' || typeof record.model !== 'string' || typeof record.source !== 'string') continue;
      out.push({
        key,
        upstream: record.upstream,
        model: record.model,
        remainingMs: Number(remaining),
        level: Number(record.level) || 0,
        cause: record.cause === 'rate_limit' || record.cause === 'unavailable' ? record.cause : 'failures',
        source: record.source,
        ...(record.scoped === true ? { scoped: true } : {}),
      });
    } catch {
      // Someone else's value under our key: not a cooldown.
    }
  }
  return out;
}

/**
 * Creates a Redis-backed {@link HealthStore}.
 *
 * @throws GatewayConfigError when an option is wrong (no client, a refresh period that is not a number...).
 * @example
 * import { Redis } from 'ioredis';
 * const gateway = createGateway({ auth, routes, routing: { health: redisHealthStore({ client: new Redis(process.env.REDIS_URL!) }) } });
 */
export function redisHealthStore(options: RedisHealthStoreOptions): HealthStore {
  assertOptions(redisHealthStoreOptionsSchema, options, 'redisHealthStore');
  const run = scriptRunner(options.client, 'redisHealthStore');
  const key = `${options.prefix ?? 'modelgate:health:'}cooldowns`;
  const refreshMs = options.refreshMs ?? 1_000;
  const listeners = new Set<(cooldowns: readonly SharedCooldown[]) => void>();
  let timer: NodeJS.Timeout | undefined;
  let reading = false;

  const timeoutMs = Math.max(refreshMs, 1000);
  const failureListeners = new Set<(failure: StoreFailure) => void>();
  // Told once per outage: the first failure after a success.
  let failing = false;
  const succeed = (): void => {
    failing = false;
  };
  const fail =
    (operation: string) =>
    (error: unknown): void => {
      try {
        options.onError?.(error);
      } catch {
        // A failing logger must not change anything.
      }
      if (failing) return;
      failing = true;
      const reason = error instanceof NoAnswer ? 'timeout' : 'failed';
      const failure = new StoreFailure({ store: 'health store', operation, reason, retryInMs: refreshMs, timeoutMs, cause: error });
      for (const listener of failureListeners) {
        try {
          listener(failure);
        } catch {
          // A failing logger must not change anything.
        }
      }
    };
  // A Redis that does not answer (commands queued while it is away) must not hold the next read back forever.
  const bounded = <T>(promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const guard = setTimeout(() => reject(new NoAnswer(`redisHealthStore: Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
      guard.unref();
      promise.then(
        (value) => {
          clearTimeout(guard);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(guard);
          reject(error);
        },
      );
    });

  const refresh = async (): Promise<void> => {
    if (reading || listeners.size === 0) return;
    reading = true;
    try {
      const cooldowns = parseReply(await bounded(run(READ_SCRIPT, READ_SHA, [key], [])));
      succeed();
      for (const listener of listeners) {
        try {
          listener(cooldowns);
        } catch {
          // A failing listener must not stop the others.
        }
      }
    } catch (error) {
      fail('refresh')(error);
    } finally {
      reading = false;
    }
  };

  return markShared({
    publish(cooldown) {
      const record: Record = { upstream: cooldown.upstream, model: cooldown.model, level: cooldown.level, cause: cooldown.cause, source: cooldown.source };
      // One credential's cooldown (`keyPassthrough`): its field is the credential's digest, never the key.
      if (cooldown.scoped === true) record.scoped = true;
      bounded(run(PUBLISH_SCRIPT, PUBLISH_SHA, [key], [cooldown.key, String(Math.max(0, Math.round(cooldown.remainingMs))), JSON.stringify(record)])).then(succeed, fail('publish'));
    },
    recover(field) {
      bounded(run(RECOVER_SCRIPT, RECOVER_SHA, [key], [field])).then(succeed, fail('recover'));
    },
    onFailure(listener) {
      failureListeners.add(listener);
      return () => failureListeners.delete(listener);
    },
    subscribe(listener) {
      listeners.add(listener);
      if (timer === undefined) {
        timer = setInterval(() => void refresh(), refreshMs);
        timer.unref();
      }
      void refresh();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== undefined) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
  });
}
