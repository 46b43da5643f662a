/**
 * Cooldowns shared through a real Redis: two gateway instances (one on an
 * ioredis client, one on node-redis) in front of the same upstreams. A
 * target instance A saw fail is skipped by instance B, which never sent it
 * a request; when Redis goes away, both keep serving from their own state.
 */
import { openAICompatible, redisHealthStore, type Route } from 'modelgate';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandStub, startCommandStub } from '../helpers/command-stub.js';
import { AUTH, openAIClient } from '../helpers/e2e-fixtures.js';
import { useRedisClients } from '../helpers/redis-clients.js';
import { startRedis } from '../helpers/redis-server.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream } from '../helpers/stub-upstream.js';

const REFRESH_MS = 50;
const redis = useRedisClients();
let primary: CommandStub;
let backup: CommandStub;

beforeAll(async () => {
  [primary, backup] = await Promise.all([startCommandStub(), startCommandStub()]);
});
afterAll(async () => {
  await Promise.all([primary.close(), backup.close()]);
});

function routes(): Route[] {
  const chat = (name: string, stub: CommandStub) => openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-up', name });
  return [{ match: 'team-model', upstream: chat('primary', primary), fallbacks: [chat('backup', backup)], retries: 0 }];
}

const ask = (app: StartedApp) => openAIClient(app.url).chat.completions.create({ model: 'team-model', messages: [{ role: 'user', content: 'hi' }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cooldowns shared through Redis', () => {
  it('instance B skips a target that instance A saw fail, without sending it anything', async () => {
    const prefix = `t${Date.now()}:`;
    const cooldown = { failures: 2, baseMs: 5_000 };
    const a = await startApp('node', { auth: AUTH, routes: routes(), routing: { health: redisHealthStore({ client: redis.io, prefix, refreshMs: REFRESH_MS }), cooldown } });
    const b = await startApp('express5', { auth: AUTH, routes: routes(), routing: { health: redisHealthStore({ client: redis.node, prefix, refreshMs: REFRESH_MS }), cooldown } });
    try {
      primary.fault = '5xx';
      for (let i = 0; i < 2; i++) await ask(a);
      expect(primary.requests).toHaveLength(2);
      // B reads the shared cooldowns every REFRESH_MS: give it a few periods.
      await sleep(REFRESH_MS * 6);
      primary.fault = 'good';
      const backupBefore = backup.requests.length;
      for (let i = 0; i < 4; i++) expect((await ask(b)).choices[0]?.message.content).toBe('all good');
      expect(primary.requests).toHaveLength(2);
      expect(backup.requests.length - backupBefore).toBe(4);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('without the shared store, B still tries the failing target (the control)', async () => {
    const cooldown = { failures: 2, baseMs: 5_000 };
    const a = await startApp('node', { auth: AUTH, routes: routes(), routing: { cooldown } });
    const b = await startApp('node', { auth: AUTH, routes: routes(), routing: { cooldown } });
    try {
      primary.fault = '5xx';
      const before = primary.requests.length;
      for (let i = 0; i < 2; i++) await ask(a);
      await sleep(REFRESH_MS * 6);
      await ask(b);
      expect(primary.requests.length - before).toBe(3);
    } finally {
      primary.fault = 'good';
      await a.close();
      await b.close();
    }
  });

  it('a Redis outage does not break requests: each instance goes on with its own state', async () => {
    const server = await startRedis();
    const client = new Redis(server.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    client.on('error', () => undefined);
    const errors: unknown[] = [];
    const app = await startApp('node', {
      auth: AUTH,
      routes: routes(),
      routing: { health: redisHealthStore({ client, prefix: 'outage:', refreshMs: REFRESH_MS, onError: (error) => errors.push(error) }), cooldown: { failures: 2, baseMs: 5_000 } },
    });
    try {
      await server.stop();
      primary.fault = '5xx';
      const before = primary.requests.length;
      for (let i = 0; i < 4; i++) expect((await ask(app)).choices[0]?.message.content).toBe('all good');
      // The local state still cooled the primary after two failures.
      expect(primary.requests.length - before).toBe(2);
      await sleep(REFRESH_MS * 4);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      primary.fault = 'good';
      await app.close();
      client.disconnect();
    }
  });

  it("keyPassthrough: Alice's own rate limit reaches Alice's calls on the other instance, never Bob's, and Redis holds no key", async () => {
    const alice = 'sk-alice-shared-000000000000';
    const bob = 'sk-bob-shared-00000000000000';
    const auth = { keys: [{ key: alice, id: 'alice' }, { key: bob, id: 'bob' }] };
    const upstream = await startStubUpstream((request) =>
      request.headers.authorization === `Bearer ${alice}`
        ? { kind: 'json', status: 429, headers: { 'retry-after': '30' }, body: { error: { message: 'slow down', type: 'rate_limit_error', param: null, code: null } } }
        : { kind: 'json', body: { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop', logprobs: null }] } },
    );
    const prefix = `p${Date.now()}:`;
    const passthrough = (): Route[] => [{ match: 'team-model', upstream: openAICompatible({ baseURL: `${upstream.url}/v1`, apiKey: 'sk-up', name: 'vendor' }), keyPassthrough: true, retries: 0 }];
    const a = await startApp('node', { auth, routes: passthrough(), routing: { health: redisHealthStore({ client: redis.io, prefix, refreshMs: REFRESH_MS }) } });
    const b = await startApp('express5', { auth, routes: passthrough(), routing: { health: redisHealthStore({ client: redis.node, prefix, refreshMs: REFRESH_MS }) } });
    const status = async (app: StartedApp, key: string) =>
      (await fetch(`${app.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'team-model', messages: [{ role: 'user', content: 'hi' }] }),
      })).status;
    try {
      expect(await status(a, alice)).toBe(429);
      expect(upstream.requests).toHaveLength(1);
      await sleep(REFRESH_MS * 6);
      // Instance B took Alice's cooldown over: her call there is answered without reaching the upstream.
      expect(await status(b, alice)).toBe(429);
      expect(upstream.requests).toHaveLength(1);
      // Bob's calls reach the upstream on both instances.
      expect(await status(b, bob)).toBe(200);
      expect(await status(a, bob)).toBe(200);
      expect(upstream.requests).toHaveLength(3);
      // What Redis holds names the target and a digest of the credential, never the key.
      const stored = JSON.stringify(await redis.io.hgetall(`${prefix}cooldowns`));
      expect(stored).toContain('vendor');
      expect(stored).not.toContain('alice');
      expect(stored).not.toContain(alice.slice(3, 12));
    } finally {
      await a.close();
      await b.close();
      await upstream.close();
    }
  });
});
