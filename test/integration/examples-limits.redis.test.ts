/**
 * The example apps' limits and stored responses from the environment with
 * REDIS_URL: shared through a real Redis by two instances (without it:
 * examples-limits.test.ts).
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

  it('keeps stored responses in Redis with REDIS_URL: another instance continues the conversation', async () => {
    const config = configFromEnv({ MODELGATE_API_KEYS: KEYS, REDIS_URL: redis.url });
    const second = configFromEnv({ MODELGATE_API_KEYS: KEYS, REDIS_URL: redis.url });
    onTestFinished(async () => {
      await config.dispose?.();
      await second.dispose?.();
    });
    expect(config.notes.join('\n')).toMatch(/Stored responses \(\/v1\/responses\): in Redis/);
    const respond = (gateway: ReturnType<typeof createGateway>, body: Record<string, unknown>) =>
      gateway.handle({
        method: 'POST',
        url: '/v1/responses',
        headers: { authorization: 'Bearer sk-ex-one', 'content-type': 'application/json' },
        body,
        signal: new AbortController().signal,
      });
    const first = await respond(createGateway(config.options), { model: 'gpt-4o', input: 'Hello' });
    expect(first.status).toBe(200);
    const id = (first as { body: { id: string } }).body.id;
    const next = await respond(createGateway(second.options), { model: 'gpt-4o', previous_response_id: id, input: 'And again' });
    expect(next.status).toBe(200);
    expect((next as { body: { previous_response_id: string } }).body.previous_response_id).toBe(id);
  });
});
