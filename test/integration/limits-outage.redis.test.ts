/**
 * Redis stopped mid-test: `onStoreError: 'closed'` answers 503 in the
 * caller's format, `'open'` keeps serving with per-instance limits, and
 * neither hangs.
 */
import { Redis } from 'ioredis';
import { createGateway, type LimitsOptions, redisLimitStore } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY } from '../helpers/e2e-fixtures.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const chatBody = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hello' }] };

describe('Redis stopped mid-test', () => {
  let redis: RedisServer;
  let client: Redis;
  const apps: Record<string, StartedApp> = {};
  const failures: unknown[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    // The client's own retry budget is large: the gateway's time-out is what bounds each request.
    client = new Redis(redis.url, { maxRetriesPerRequest: 50 });
    // The app owns its client's error events; failures reach the gateway through `onStoreFailure`.
    client.on('error', () => {});
    for (const policy of ['open', 'closed'] as const) {
      const limits: LimitsOptions = {
        store: redisLimitStore({ client, prefix: `${policy}:` }),
        rules: [{ requests: { limit: 3, windowSeconds: 3600 } }],
        onStoreError: policy,
        storeTimeoutMs: 300,
        onStoreFailure: (error) => failures.push(error),
      };
      apps[policy] = await startApp('koa3', createGateway({ auth: { keys: [KEY] }, limits }));
    }
  });

  afterAll(async () => {
    await Promise.all(Object.values(apps).map((app) => app.close()));
    client?.disconnect();
    await redis?.stop();
  });

  const ask = (policy: string) =>
    fetch(`${apps[policy]!.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify(chatBody),
    });

  it('applies the configured policy without hanging', async () => {
    expect((await ask('open')).status).toBe(200);
    expect((await ask('closed')).status).toBe(200);
    await redis.stop();

    const started = Date.now();
    const closed = await ask('closed');
    expect(closed.status).toBe(503);
    expect(await closed.json()).toMatchObject({ error: { type: 'server_error', message: expect.stringContaining('limit store is unavailable') } });
    expect(Number(closed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Open: the in-memory stand-in admits up to the limit (3 per instance), then refuses.
    const open = [];
    for (let i = 0; i < 4; i++) {
      const response = await ask('open');
      open.push(response.status);
      await response.arrayBuffer();
    }
    expect(open).toEqual([200, 200, 200, 429]);
    // Generous bound on a loaded machine: without the time-out these would wait for the client's retries.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(failures.length).toBeGreaterThan(0);
  });
});
