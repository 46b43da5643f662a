/**
 * Limits of the example apps from environment variables, applying to every
 * key of the app:
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `MODELGATE_RPM` | unset | Requests per minute per key |
 * | `MODELGATE_TPM` | unset | Tokens (input + output) per minute per key |
 * | `MODELGATE_MAX_CONCURRENT` | unset | Model calls open at once per key |
 * | `REDIS_URL` | unset (in memory) | Redis shared by every instance of the app, e.g. `redis://127.0.0.1:6379` |
 *
 * With none of the three limits set, the app has no limits.
 */
import { type LimitRule, type LimitsOptions, redisLimitStore } from 'modelgate';
import { ConfigError } from './config-error.js';
import type { SharedRedis } from './redis-from-env.js';

type Env = Readonly<Record<string, string | undefined>>;

function positiveInteger(env: Env, name: string): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive integer, got "${text}".`);
  return value;
}

/** The `limits` option (undefined without limits) and a startup note; `redis` (from `REDIS_URL`) shares them across instances. */
export function limitsFromEnv(env: Env, redis?: SharedRedis): { limits: LimitsOptions | undefined; notes: string[] } {
  const rpm = positiveInteger(env, 'MODELGATE_RPM');
  const tpm = positiveInteger(env, 'MODELGATE_TPM');
  const concurrent = positiveInteger(env, 'MODELGATE_MAX_CONCURRENT');
  if (rpm === undefined && tpm === undefined && concurrent === undefined) return { limits: undefined, notes: [] };
  const rule: LimitRule = {
    ...(rpm !== undefined ? { requests: { limit: rpm, windowSeconds: 60 } } : {}),
    ...(tpm !== undefined ? { tokens: { limit: tpm, windowSeconds: 60 } } : {}),
    ...(concurrent !== undefined ? { concurrent } : {}),
  };
  const described = [rpm && `${rpm} requests/min`, tpm && `${tpm} tokens/min`, concurrent && `${concurrent} at once`].filter(Boolean).join(', ');
  if (!redis) return { limits: { rules: [rule] }, notes: [`Limits per key: ${described} (in memory: REDIS_URL not set).`] };
  return {
    limits: { rules: [rule], store: redisLimitStore({ client: redis.client }), onStoreError: 'open' },
    notes: [`Limits per key: ${described}, shared through Redis at ${redis.where} (fail-open).`],
  };
}
