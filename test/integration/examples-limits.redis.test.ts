/**
 * The example apps' limits from the environment with REDIS_URL: shared
 * through a real Redis by two instances (without it: examples-limits.test.ts).
 */
import { Redis } from 'ioredis';
import { createGateway } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { configFromEnv } from '../../examples/shared/config-from-env.js';
import { ask, KEYS } from '../helpers/example-limits.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

describe('example limits from the environment', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('in Redis with REDIS_URL', async () => {
    const config = configFromEnv({ MODELGATE_API_KEYS: KEYS, MODELGATE_RPM: '1', REDIS_URL: redis.url });
    const second = configFromEnv({ MODELGATE_API_KEYS: KEYS, MODELGATE_RPM: '1', REDIS_URL: redis.url });
    // Their Redis clients would reconnect after this suite stops Redis, in the worker the next suites share.
    onTestFinished(async () => {
      await config.dispose?.();
      await second.dispose?.();
    });
    expect(config.notes.join('\n')).toMatch(/shared through Redis/);
    const gateway = createGateway(config.options);
    // A second instance with its own client shares the count.
    const other = createGateway(second.options);
    expect((await ask(gateway, 'sk-ex-one')).status).toBe(200);
    expect((await ask(other, 'sk-ex-one')).status).toBe(429);
    const inspect = new Redis(redis.url);
    try {
      expect((await inspect.keys('modelgate:limits:*')).length).toBeGreaterThan(0);
    } finally {
      inspect.disconnect();
    }
  });
});
