/**
 * Default principal ids over real HTTP with a real Redis: two gateway
 * instances (node:http and Express) with the same `auth.principalSecret`
 * give a key the same id, so a per-principal limit in a shared store counts
 * its calls on both, while the other key keeps its own; the store's key
 * names hold the HMAC id, never the key nor its plain SHA-256. Without the
 * secret, a shared store makes the gateway warn at creation.
 */
import { createHash, createHmac } from 'node:crypto';
import { Redis } from 'ioredis';
import { createGateway, type GatewayLogger, messagesUpstream, redisLimitStore } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';

const KEYS = { a: 'sk-tenant-a-0e4b7d19c3f2a856', b: 'sk-tenant-b-7c2f90e1d54b3a68' } as const;
const SECRET = 'shared-principal-secret-of-the-deployment';
const PREFIX = 'ids:';
const MODEL = 'vendora-sonnet-4-6';

/** The id the documentation gives a key: `key_` and 24 hex digits of HMAC-SHA-256(secret, key). */
const documentedId = (key: string): string => `key_${createHmac('sha256', SECRET).update(key).digest('hex').slice(0, 24)}`;

describe('principal ids across two instances', () => {
  let redis: RedisServer;
  let client: Redis;
  let stub: StubUpstream;
  const apps: StartedApp[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    stub = await startStubUpstream(() => ({
      kind: 'json',
      body: { id: 'msg_stub', type: 'message', role: 'assistant', model: MODEL, content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } },
    }));
    const upstream = messagesUpstream({ baseURL: stub.url, apiKey: 'upstream-key', name: 'stub' });
    for (const mount of ['node', 'express5'] as const) {
      const gateway = createGateway({
        auth: { keys: [KEYS.a, KEYS.b], principalSecret: SECRET },
        routes: [{ match: '*', upstream, retries: 0 }],
        limits: { store: redisLimitStore({ client, prefix: PREFIX }), storeTimeoutMs: 10_000, rules: [{ requests: { limit: 3, windowSeconds: 3600 } }] },
      });
      apps.push(await startApp(mount, gateway));
    }
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    client?.disconnect();
    await stub?.close();
    await redis?.stop();
  });

  const ask = async (app: StartedApp, key: string): Promise<number> => {
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    await response.arrayBuffer();
    return response.status;
  };

  it('one key counts once across instances; the other key keeps its own limit', async () => {
    const [node, express] = apps as [StartedApp, StartedApp];
    expect([await ask(node, KEYS.a), await ask(express, KEYS.a), await ask(node, KEYS.a)]).toEqual([200, 200, 200]);
    expect([await ask(express, KEYS.a), await ask(node, KEYS.a)]).toEqual([429, 429]);
    expect([await ask(express, KEYS.b), await ask(node, KEYS.b), await ask(express, KEYS.b), await ask(node, KEYS.b)]).toEqual([200, 200, 200, 429]);
  });

  it('the store holds the HMAC ids, never a key or its plain hash', async () => {
    const names = await client.keys(`${PREFIX}*`);
    expect(names.length).toBeGreaterThan(0);
    const stored = names.join('\n');
    for (const key of Object.values(KEYS)) {
      expect(stored).toContain(`{${documentedId(key)}}`);
      expect(stored).not.toContain(key.slice(-12));
      expect(stored).not.toContain(createHash('sha256').update(key).digest('hex').slice(0, 12));
    }
  });

  it('a shared store without the secret: one warning at creation, naming the store and the fix', () => {
    const warned: { object: Record<string, unknown>; message: string | undefined }[] = [];
    const logger: GatewayLogger = {
      info() {},
      warn: (object, message) => void warned.push({ object, message }),
      error() {},
      debug() {},
      child: () => logger,
    };
    createGateway({ auth: { keys: [KEYS.a, KEYS.b] }, limits: { store: redisLimitStore({ client, prefix: PREFIX }), rules: [{ requests: { limit: 3 } }] }, logger });
    expect(warned).toEqual([
      {
        object: { component: 'modelgate', event: 'principal_secret_missing' },
        message: expect.stringMatching(/^modelgate: limits\.store is a store shared by every instance, but auth\.principalSecret is not set: .* Set auth\.principalSecret/),
      },
    ]);
    for (const key of Object.values(KEYS)) expect(warned[0]!.message).not.toContain(key.slice(-12));
  });
});
