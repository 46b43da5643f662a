/**
 * The response cache on a real redis-server shared by two gateway
 * instances: one fills what the other serves, a stampede across both makes
 * one upstream call, and a frozen Redis leaves every request answered from
 * upstream (misses), never an error.
 */
import { Redis } from 'ioredis';
import { redisResponseCache } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCalls, type CountingUpstream } from '../helpers/counting-upstream.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-cache-shared-0123456789';
const MODEL = 'gpt-4o';
const ask = (text: string) => [{ role: 'user' as const, content: text }];

describe('response cache shared on Redis', () => {
  let redis: RedisServer;
  const clients: Redis[] = [];
  const apps: StartedApp[] = [];
  let upstream: CountingUpstream;

  beforeAll(async () => {
    redis = await startRedis();
    // One upstream behind both instances, so its count is the calls of the pair.
    upstream = countCalls(createSimulator({ pace: { firstTokenMs: 200 } }).upstreams.chat);
    for (const mount of ['node', 'express5'] as Mount[]) {
      const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      clients.push(client);
      apps.push(await startApp(mount, {
        auth: { keys: [{ key: KEY, id: 'team' }] },
        routes: [{ match: MODEL, upstream, retries: 0 }],
        // A loaded test machine can hold a Redis reply past the default 250 ms, which is a miss by design;
        // these tests are about the lock and the sharing, so the store gets longer to answer.
        cache: { store: redisResponseCache({ client, prefix: 'cache-test:' }), storeTimeoutMs: 2000 },
      }));
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    for (const client of clients) client.disconnect();
    await redis.stop();
  });

  const openai = (app: StartedApp) => new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });

  it('an entry one instance filled answers on the other', async () => {
    const before = upstream.calls;
    const first = await openai(apps[0]!).chat.completions.create({ model: MODEL, messages: ask('Shared between instances.') }).withResponse();
    expect(first.response.headers.get('x-modelgate-cache')).toBe('miss');
    const other = await openai(apps[1]!).chat.completions.create({ model: MODEL, messages: ask('Shared between instances.') }).withResponse();
    expect(other.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(other.data.choices[0]?.message.content).toBe(first.data.choices[0]?.message.content);
    expect(upstream.calls - before).toBe(1);
  });

  it('2 × 50 concurrent identical requests across the instances make one upstream call', async () => {
    const before = upstream.calls;
    const requests = apps.flatMap((app) => Array.from({ length: 50 }, () =>
      openai(app).chat.completions.create({ model: MODEL, messages: ask('Everyone at once, everywhere.') }).withResponse()));
    const answers = await Promise.all(requests);
    expect(upstream.calls - before).toBe(1);
    expect(new Set(answers.map((answer) => answer.data.choices[0]?.message.content)).size).toBe(1);
    expect(answers.filter((answer) => answer.response.headers.get('x-modelgate-cache') === 'hit')).toHaveLength(99);
  });

  it('a frozen Redis: requests are answered from upstream as misses, never errors', async () => {
    redis.pause();
    try {
      const before = upstream.calls;
      for (const app of apps) {
        const answer = await openai(app).chat.completions.create({ model: MODEL, messages: ask('Redis is frozen.') }).withResponse();
        expect(answer.response.status).toBe(200);
        expect(answer.response.headers.get('x-modelgate-cache')).toBe('miss');
      }
      expect(upstream.calls - before).toBe(2);
    } finally {
      redis.resume();
    }
  });
});
