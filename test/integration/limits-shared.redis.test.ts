/**
 * Two gateway instances (Express and Koa), each with its own Redis client,
 * sharing one real Redis: 200 concurrent requests in both interfaces are
 * admitted exactly up to the limit, the rest get a 429 in the caller's
 * format, nothing over the limit reaches the upstream, and every answer
 * carries the limit headers of its interface.
 */
import { Redis } from 'ioredis';
import { createGateway, redisLimitStore, type Upstream } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, VENDOR_MODELS } from '../helpers/e2e-fixtures.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const LIMIT = 50;
const TOTAL = 200;

function counted(upstream: Upstream): Upstream & { calls: number } {
  const wrapper = {
    name: upstream.name,
    format: upstream.format,
    calls: 0,
    send(call: Parameters<Upstream['send']>[0]) {
      wrapper.calls++;
      return upstream.send(call);
    },
  };
  return wrapper;
}

describe('limits shared through one Redis by an Express and a Koa instance', () => {
  let redis: RedisServer;
  const clients: Redis[] = [];
  const apps: StartedApp[] = [];
  const storeFailures: unknown[] = [];
  const simulator = createSimulator();
  const messages = counted(simulator.upstreams.messages);
  const chat = counted(simulator.upstreams.chat);

  beforeAll(async () => {
    redis = await startRedis();
    for (const mount of ['express5', 'koa3'] as const) {
      const client = new Redis(redis.url);
      clients.push(client);
      const gateway = createGateway({
        auth: { keys: [KEY] },
        routes: [
          { match: 'vendora-*', upstream: messages },
          { match: '*', upstream: chat },
        ],
        // A window of 1000 hours: refill during the test is far below one request.
        limits: {
          store: redisLimitStore({ client }),
          rules: [{ requests: { limit: LIMIT, windowSeconds: 3_600_000 } }],
          // Exactness across instances is the point here: a slow answer on a loaded machine must not
          // switch an instance to its fail-open stand-in (the outage policy has its own tests).
          storeTimeoutMs: 10_000,
          onStoreFailure: (error) => storeFailures.push(error),
        },
      });
      apps.push(await startApp(mount, gateway));
    }
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    for (const client of clients) client.disconnect();
    await redis?.stop();
  });

  it(`admits exactly ${LIMIT} of ${TOTAL} concurrent requests, in both formats`, async () => {
    const send = (index: number) => {
      const app = apps[index % 2]!;
      const asMessages = index % 4 >= 2;
      const url = asMessages ? `${app.url}/v1/messages` : `${app.url}/v1/chat/completions`;
      const body = asMessages
        ? { model: VENDOR_MODELS[0], max_tokens: 64, messages: [{ role: 'user', content: `Hello ${index}` }] }
        : { model: 'gpt-4o', messages: [{ role: 'user', content: `Hello ${index}` }] };
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (asMessages) {
        headers['x-api-key'] = KEY;
        headers['anthropic-version'] = '2023-06-01';
      } else headers.authorization = `Bearer ${KEY}`;
      return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }).then(async (response) => ({
        asMessages,
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Record<string, unknown>,
      }));
    };
    const results = await Promise.all(Array.from({ length: TOTAL }, (_, index) => send(index)));
    expect(storeFailures).toEqual([]);
    const admitted = results.filter((result) => result.status === 200);
    const refused = results.filter((result) => result.status === 429);
    expect(admitted).toHaveLength(LIMIT);
    expect(refused).toHaveLength(TOTAL - LIMIT);
    // Nothing over the limit was sent upstream.
    expect(messages.calls + chat.calls).toBe(LIMIT);

    for (const result of results) {
      if (result.asMessages) {
        expect(result.headers.get('anthropic-ratelimit-requests-limit')).toBe(String(LIMIT));
        expect(Number(result.headers.get('anthropic-ratelimit-requests-remaining'))).toBeGreaterThanOrEqual(0);
        expect(result.headers.get('anthropic-ratelimit-requests-reset')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(result.headers.get('x-ratelimit-limit-requests')).toBeNull();
      } else {
        expect(result.headers.get('x-ratelimit-limit-requests')).toBe(String(LIMIT));
        expect(Number(result.headers.get('x-ratelimit-remaining-requests'))).toBeGreaterThanOrEqual(0);
        expect(result.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d+h)?(\d+m)?[\d.]+m?s$/);
        expect(result.headers.get('anthropic-ratelimit-requests-limit')).toBeNull();
      }
    }
    for (const result of refused) {
      // One request comes back every 3_600_000 s / 50 = 72_000 s.
      expect(Number(result.headers.get('retry-after'))).toBeGreaterThan(71_000);
      expect(Number(result.headers.get('retry-after'))).toBeLessThanOrEqual(72_000);
      if (result.asMessages) {
        expect(result.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining('requests') } });
      } else {
        expect(result.body).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: expect.stringContaining('Retry in') } });
      }
    }
    // Each admitted answer saw a distinct remaining count: the 50 reservations were serialised.
    const remaining = admitted.map((result) =>
      Number(result.headers.get(result.asMessages ? 'anthropic-ratelimit-requests-remaining' : 'x-ratelimit-remaining-requests')),
    );
    expect(new Set(remaining).size).toBe(LIMIT);
    expect(Math.min(...remaining)).toBe(0);
  });
});
