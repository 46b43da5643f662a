/**
 * Token reservations corrected to what the upstream reported, on a real
 * Redis: after a normal end, an aborted stream and an upstream error; for
 * `n > 1` fanned out; with a retry (counted once); concurrency released when
 * the client leaves; a spent budget; limits carried by the principal. The
 * upstream is a scripted HTTP stub whose usage figures are the expected values.
 */
import { Redis } from 'ioredis';
import { createGateway, messagesUpstream, redisLimitStore, type Principal } from 'modelgate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubReply, type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';

const KEY = 'sk-acct-0123456789';
const CC_KEY = 'sk-cc-0123456789';
const BUDGET_KEY = 'sk-budget-0123456789';
const TOKENS = 1_000_000;
// A window of about 31 years: refill while the test runs is far below one token.
const WINDOW_S = 1_000_000_000;

const message = (input: number, output: number) => ({
  id: 'msg_stub',
  type: 'message',
  role: 'assistant',
  model: 'vendora-sonnet-4-6',
  content: [{ type: 'text', text: 'Hello.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: input, output_tokens: output },
});

const slowStream: StubReply = {
  kind: 'sse',
  events: [
    { event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { ...message(40, 1), content: [], stop_reason: null } }) },
    { event: 'content_block_start', data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}' },
    { event: 'content_block_delta', data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}' },
    ...Array.from({ length: 50 }, () => ({ event: 'content_block_delta', data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" more"}}', delayMs: 200 })),
  ],
  then: 'hang',
};

/** A stream the upstream breaks off with an in-band error after its 200 head. */
const cutStream: StubReply = {
  kind: 'sse',
  events: [
    { event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { ...message(40, 1), content: [], stop_reason: null } }) },
    { event: 'content_block_start', data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}' },
    { event: 'content_block_delta', data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}' },
    { event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' },
  ],
};

/** Replies by scenario, named in the request's last user text. */
function script(counts: Map<string, number>) {
  return (request: { body: string }): StubReply => {
    const scenario = /scenario:([\w-]+)/.exec(request.body)?.[1] ?? 'ok';
    const seen = counts.get(scenario) ?? 0;
    counts.set(scenario, seen + 1);
    switch (scenario) {
      case 'stream':
        return slowStream;
      case 'cut':
        return cutStream;
      case 'error':
        return { kind: 'json', status: 500, body: { type: 'error', error: { type: 'api_error', message: 'boom' } } };
      case 'retry':
        return seen === 0
          ? { kind: 'json', status: 503, body: { type: 'error', error: { type: 'overloaded_error', message: 'busy' } } }
          : { kind: 'json', body: message(25, 7) };
      case 'fan':
        return { kind: 'json', body: message(10, 5) };
      default:
        return { kind: 'json', body: message(30, 12) };
    }
  };
}

describe('limits accounting on Redis', () => {
  let redis: RedisServer;
  let client: Redis;
  const storeFailures: unknown[] = [];
  let stub: StubUpstream;
  let app: StartedApp;
  const counts = new Map<string, number>();

  const principals: Record<string, Principal> = {
    [KEY]: { id: 'acct' },
    [CC_KEY]: { id: 'cc', limits: [{ concurrent: 1 }] },
    [BUDGET_KEY]: { id: 'budget', limits: [{ budget: { limit: 0.001 } }] },
  };

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    stub = await startStubUpstream(script(counts));
    const upstream = messagesUpstream({ baseURL: stub.url, apiKey: 'upstream-key', name: 'stub' });
    app = await startApp('express5', createGateway({
      auth: { verify: (key) => principals[key] ?? null },
      routes: [
        { match: 'vendora-opus-4-6', upstream, retries: 1 },
        { match: '*', upstream, retries: 0 },
      ],
      limits: {
        store: redisLimitStore({ client }),
        // These tests are about exact counts in Redis: a slow answer on a loaded machine must not
        // switch to the fail-open stand-in (the outage policy has its own tests).
        storeTimeoutMs: 10_000,
        onStoreFailure: (error) => storeFailures.push(error),
        rules: [{ tokens: { limit: TOKENS, windowSeconds: WINDOW_S }, requests: { limit: 1000, windowSeconds: WINDOW_S } }],
        prices: { 'vendora-*': { input: 10, output: 30 } },
      },
    }));
  });

  afterEach(() => {
    expect(storeFailures).toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
    await stub?.close();
    client?.disconnect();
    await redis?.stop();
  });

  const store = () => redisLimitStore({ client });
  /** The tokens left in `acct`'s bucket, read from Redis without taking any. */
  const tokensLeft = async () =>
    (await store().reserve([{ kind: 'bucket', key: '{acct}:*:tk:input+output', capacity: TOKENS, windowMs: WINDOW_S * 1000, amount: 0 }])).states[0]!.remaining;
  const requestsLeft = async () =>
    (await store().reserve([{ kind: 'bucket', key: '{acct}:*:rq', capacity: 1000, windowMs: WINDOW_S * 1000, amount: 0 }])).states[0]!.remaining;

  /** Polls until `read` returns `expected` (settling runs after the response) or 5 s pass. */
  async function settledTo(read: () => Promise<number>, expected: number): Promise<number> {
    const deadline = Date.now() + 5000;
    let value = await read();
    while (value !== expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      value = await read();
    }
    return value;
  }

  const post = (path: string, body: unknown, key = KEY, signal?: AbortSignal) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });

  const messagesBody = (scenario: string, extra: Record<string, unknown> = {}) => ({
    model: 'vendora-sonnet-4-6',
    max_tokens: 2000,
    messages: [{ role: 'user', content: `Tell me something. scenario:${scenario}` }],
    ...extra,
  });

  it('corrects the reservation to the reported usage after a normal end', async () => {
    const before = await tokensLeft();
    const response = await post('/v1/messages', messagesBody('ok'));
    expect(response.status).toBe(200);
    // While reserved, the header shows the reservation (input estimate + max_tokens 2000) taken.
    expect(Number(response.headers.get('anthropic-ratelimit-tokens-remaining'))).toBeLessThanOrEqual(before - 2000);
    await response.json();
    expect(await settledTo(tokensLeft, before - 42)).toBe(before - 42);
  });

  it('keeps the reserved output of an aborted stream charged (its final count never arrived)', async () => {
    const before = await tokensLeft();
    const controller = new AbortController();
    const response = await post('/v1/messages', messagesBody('stream', { stream: true }), KEY, controller.signal);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('"Hi"')) text += Buffer.from((await reader.read()).value ?? []).toString();
    controller.abort();
    // message_start reported 40 input tokens (and 1 output) before the client left; the output
    // reserved (max_tokens 2000) stays charged, since the upstream's final count never arrived.
    expect(await settledTo(tokensLeft, before - 2040)).toBe(before - 2040);
  });

  it('releases the whole reservation when the upstream fails', async () => {
    const before = await tokensLeft();
    const response = await post('/v1/messages', messagesBody('error'));
    expect(response.status).toBe(500);
    expect(response.headers.get('anthropic-ratelimit-tokens-limit')).toBe(String(TOKENS));
    expect(await settledTo(tokensLeft, before)).toBe(before);
  });

  it('releases the reservation of a stream the upstream breaks off after its head', async () => {
    const before = await tokensLeft();
    const response = await post('/v1/messages', messagesBody('cut', { stream: true }));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('event: error');
    expect(await settledTo(tokensLeft, before)).toBe(before);
  });

  it('counts a retried call once', async () => {
    const [tokens, requests] = [await tokensLeft(), await requestsLeft()];
    const response = await post('/v1/messages', { ...messagesBody('retry'), model: 'vendora-opus-4-6' });
    expect(response.status).toBe(200);
    expect(counts.get('retry')).toBe(2);
    expect(await settledTo(tokensLeft, tokens - 32)).toBe(tokens - 32);
    expect(await requestsLeft()).toBe(requests - 1);
  });

  it('counts every call of n > 1', async () => {
    const before = await tokensLeft();
    const response = await post('/v1/chat/completions', {
      model: 'vendora-sonnet-4-6',
      n: 3,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Three ways. scenario:fan' }],
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: unknown[]; usage: { total_tokens: number } };
    expect(body.choices).toHaveLength(3);
    expect(counts.get('fan')).toBe(3);
    expect(await settledTo(tokensLeft, before - 45)).toBe(before - 45);
    expect(response.headers.get('x-ratelimit-limit-tokens')).toBe(String(TOKENS));
  });

  it('releases a concurrency slot when the client leaves', async () => {
    const controller = new AbortController();
    const first = await post('/v1/messages', messagesBody('stream', { stream: true }), CC_KEY, controller.signal);
    expect(first.status).toBe(200);
    const reader = first.body!.getReader();
    await reader.read();
    const second = await post('/v1/messages', messagesBody('ok'), CC_KEY);
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining('concurrent') } });
    controller.abort();
    const leftAt = Date.now();
    let status = 429;
    while (status === 429 && Date.now() - leftAt < 5000) {
      const again = await post('/v1/messages', messagesBody('ok'), CC_KEY);
      status = again.status;
      await again.arrayBuffer();
    }
    expect(status).toBe(200);
  });

  it('refuses with insufficient_quota once the budget is spent', async () => {
    const ask = () => post('/v1/chat/completions', { model: 'vendora-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'Hi. scenario:ok' }] }, BUDGET_KEY);
    // 30 input and 12 output tokens at $10 / $30 per million: $0.00066 of the $0.001 budget.
    expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'insufficient_quota', type: 'insufficient_quota' } });
    expect(refused.headers.get('x-should-retry')).toBe('false');
  });
});
