/**
 * The example apps' limits from the environment: MODELGATE_RPM / _TPM /
 * _MAX_CONCURRENT for every key, in memory without REDIS_URL (with it:
 * examples-limits.redis.test.ts).
 */
import { createGateway } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../examples/shared/config-from-env.js';
import { ask, KEYS } from '../helpers/example-limits.js';

describe('example limits from the environment', () => {
  it('no limit variables: no limits', async () => {
    const config = configFromEnv({ REDIS_URL: 'redis://127.0.0.1:1' });
    // REDIS_URL still keeps the stored responses: its client is closed here, not left reconnecting.
    await config.dispose?.();
    expect(config.options.limits).toBeUndefined();
  });

  it('rejects values that are not positive integers', () => {
    expect(() => configFromEnv({ MODELGATE_RPM: 'ten' })).toThrow(/MODELGATE_RPM must be a positive integer/);
    expect(() => configFromEnv({ MODELGATE_MAX_CONCURRENT: '0' })).toThrow(/MODELGATE_MAX_CONCURRENT/);
  });

  it('in memory without REDIS_URL, for every key', async () => {
    const config = configFromEnv({ MODELGATE_API_KEYS: KEYS, MODELGATE_RPM: '1', MODELGATE_TPM: '100000', MODELGATE_MAX_CONCURRENT: '4' });
    expect(config.options.limits?.rules).toEqual([{ requests: { limit: 1, windowSeconds: 60 }, tokens: { limit: 100000, windowSeconds: 60 }, concurrent: 4 }]);
    expect(config.options.limits?.store).toBeUndefined();
    const gateway = createGateway(config.options);
    for (const key of ['sk-ex-one', 'sk-ex-two']) {
      const first = await ask(gateway, key);
      expect(first.status).toBe(200);
      expect(first.headers['x-ratelimit-limit-requests']).toBe('1');
      expect(first.headers['x-ratelimit-limit-tokens']).toBe('100000');
      expect((await ask(gateway, key)).status).toBe(429);
    }
  });
});
