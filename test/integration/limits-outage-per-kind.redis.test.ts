/**
 * The outage policy per kind of limit, over real HTTP (node:http and
 * Express), two keys, a stub upstream on 127.0.0.1 and a real Redis frozen
 * mid-test (SIGSTOP: commands go unanswered, data is kept):
 * - by default a budget refuses with 503 and `retry-after` in the caller's
 *   format (not a 429: nobody is over budget), a requests-per-minute rule
 *   stays open;
 * - `onStoreError: { budget: 'open', requests: 'closed' }` turns both round;
 * - once Redis answers again each key's budget is exact: what it spent
 *   before, nothing for the refused requests, so it admits exactly what is
 *   left.
 */
import { Redis } from 'ioredis';
import { createGateway, type LimitsOptions, messagesUpstream, redisLimitStore } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';

const KEYS = { a: 'sk-tenant-a-5f0c2e9b81d7a463', b: 'sk-tenant-b-93ad17c4e02b58f6' } as const;
const SECRET = 'outage-test-principal-secret-0123456789';
/** Models by the rule that applies to them. */
const BUDGETED = 'vendora-sonnet-4-6';
const RATED = 'vendora-haiku-4-5';
/** Output tokens of every call: reserved (`max_tokens`) and reported by the stub, so a call costs exactly OUTPUT. */
const OUTPUT = 10;
/** One unit per output token, nothing for input: a call costs 10 units. */
const PRICES = { [BUDGETED]: { input: 0, output: 1_000_000 } };
/** Three calls per key and period. */
const BUDGET = 30;
const STORE_TIMEOUT_MS = 300;
const STORE_RETRY_MS = 500;

type Format = 'chat' | 'messages';
const MOUNT_FORMATS: readonly [Mount, Format][] = [
  ['node', 'chat'],
  ['express5', 'messages'],
];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('limit store frozen mid-test: outage policy per kind of limit', () => {
  let redis: RedisServer;
  let client: Redis;
  let stub: StubUpstream;
  const apps = new Map<string, StartedApp>();
  const failures: unknown[] = [];

  const limits = (prefix: string, onStoreError?: LimitsOptions['onStoreError']): LimitsOptions => ({
    store: redisLimitStore({ client, prefix }),
    rules: [
      { models: BUDGETED, budget: { limit: BUDGET, periodSeconds: 86_400 } },
      { models: RATED, requests: { limit: 100, windowSeconds: 60 } },
    ],
    prices: PRICES,
    ...(onStoreError === undefined ? {} : { onStoreError }),
    storeTimeoutMs: STORE_TIMEOUT_MS,
    storeRetryMs: STORE_RETRY_MS,
    onStoreFailure: (error) => failures.push(error),
  });

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url, { maxRetriesPerRequest: 50 });
    client.on('error', () => {});
    stub = await startStubUpstream((request) => {
      const { model } = JSON.parse(request.body) as { model: string };
      return {
        kind: 'json',
        body: { id: 'msg_stub', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 5, output_tokens: OUTPUT } },
      };
    });
    const upstream = messagesUpstream({ baseURL: stub.url, apiKey: 'upstream-key', name: 'stub' });
    for (const [mount] of MOUNT_FORMATS) {
      for (const policy of ['default', 'override'] as const) {
        const onStoreError = policy === 'default' ? undefined : ({ budget: 'open', requests: 'closed' } as const);
        const gateway = createGateway({
          auth: { keys: [KEYS.a, KEYS.b], principalSecret: SECRET },
          routes: [{ match: '*', upstream, retries: 0 }],
          limits: limits(`${mount}:${policy}:`, onStoreError),
        });
        apps.set(`${mount}:${policy}`, await startApp(mount, gateway));
      }
    }
  });

  afterAll(async () => {
    redis?.resume();
    await Promise.all([...apps.values()].map((app) => app.close()));
    client?.disconnect();
    await stub?.close();
    await redis?.stop();
  });

  const ask = async (app: string, format: Format, key: string, model: string): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> => {
    const url = apps.get(app)!.url;
    const response =
      format === 'chat'
        ? await fetch(`${url}/v1/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({ model, max_tokens: OUTPUT, messages: [{ role: 'user', content: 'Hello' }] }),
          })
        : await fetch(`${url}/v1/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
            body: JSON.stringify({ model, max_tokens: OUTPUT, messages: [{ role: 'user', content: 'Hello' }] }),
          });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  };

  /** Statuses of `count` budgeted calls in a row. */
  const spend = async (app: string, format: Format, key: string, count: number): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await ask(app, format, key, BUDGETED)).status);
    return statuses;
  };

  it('budgets refuse with 503 while rate limits stay open; per-kind overrides; budgets exact once Redis is back', async () => {
    // Before the outage: tenant a spends one call of three, tenant b two.
    for (const [mount, format] of MOUNT_FORMATS) {
      const app = `${mount}:default`;
      expect(await spend(app, format, KEYS.a, 1)).toEqual([200]);
      expect(await spend(app, format, KEYS.b, 2)).toEqual([200, 200]);
      expect((await ask(`${mount}:override`, format, KEYS.a, RATED)).status).toBe(200);
    }
    expect(failures).toEqual([]);

    redis.pause();
    for (const [mount, format] of MOUNT_FORMATS) {
      for (const key of [KEYS.a, KEYS.b]) {
        // Default: the budget fails closed, in the caller's format, naming what cannot be checked.
        const refused = await ask(`${mount}:default`, format, key, BUDGETED);
        expect(refused.status).toBe(503);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        const message = /budget cannot be checked/;
        if (format === 'chat') expect(refused.body).toMatchObject({ error: { type: 'server_error', message: expect.stringMatching(message) } });
        else expect(refused.body).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringMatching(message) } });
        // ... while the requests-per-minute rule stays open.
        expect((await ask(`${mount}:default`, format, key, RATED)).status).toBe(200);

        // Override: budget open (the stand-in admits), requests closed.
        expect((await ask(`${mount}:override`, format, key, BUDGETED)).status).toBe(200);
        const closed = await ask(`${mount}:override`, format, key, RATED);
        expect(closed.status).toBe(503);
        expect(JSON.stringify(closed.body)).toMatch(/request rate limit cannot be checked/);
      }
    }
    expect(failures.length).toBeGreaterThan(0);

    // Redis answers again: the reservations that reached it late are undone, and the store is asked again after storeRetryMs.
    redis.resume();
    await sleep(STORE_RETRY_MS + STORE_TIMEOUT_MS);
    const failuresBefore = failures.length;
    for (const [mount, format] of MOUNT_FORMATS) {
      const app = `${mount}:default`;
      // Exactly what is left of each key's three calls: two for a, one for b, then 429 over budget.
      expect(await spend(app, format, KEYS.a, 3)).toEqual([200, 200, 429]);
      expect(await spend(app, format, KEYS.b, 2)).toEqual([200, 429]);
    }
    expect(failures.length).toBe(failuresBefore);
  });
});
