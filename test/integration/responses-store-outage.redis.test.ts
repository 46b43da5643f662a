/**
 * The Redis response store failing mid-test (a Redis frozen, then one
 * stopped), over real HTTP on node:http and Express with the official
 * `openai` client: answers come within the store's time-out plus a margin,
 * a streamed answer's `response.completed` is not held past it, a
 * `previous_response_id` turn gets a 503 with `retry-after` naming the
 * store, `onError` and the logger hear of it, only one call per back-off
 * waits for the time-out, and the store is used again once Redis is back.
 */
import { Redis } from 'ioredis';
import { createGateway, redisResponseStore } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, KEY } from '../helpers/e2e-fixtures.js';
import { heldUpstream, type HeldUpstream } from '../helpers/held-upstream.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const MODEL = 'gpt-4o-mini';
/** Routed to an upstream whose stream the test ends. */
const HELD_MODEL = 'held-model';
const TIMEOUT_MS = 500;
const RETRY_MS = 4000;
/** What an answer during the outage may take at most: the store's time-out and a margin for a loaded machine. */
const BOUND_MS = TIMEOUT_MS + 1000;
/** A call that took this long waited for the store's time-out. */
const SLOW_MS = TIMEOUT_MS * 0.8;

/** `store` as the gateway applied it (the SDK's Response type leaves it out). */
const storeOf = (response: object): unknown => (response as { store?: unknown }).store;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; startedAt: number }> {
  const startedAt = performance.now();
  const value = await work();
  return { value, ms: performance.now() - startedAt, startedAt };
}

describe.each(['node', 'express5'] as const)('the response store on a Redis that fails, through %s', (mount) => {
  let redis: RedisServer;
  let client: Redis;
  let held: HeldUpstream;
  let app: StartedApp;
  let openai: OpenAI;
  const errors: { status: number; message: string }[] = [];
  /** The logger's store failures. */
  const logged: { event: unknown; operation: unknown }[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    // The client's defaults (an offline queue, 20 retries per command): what held answers for over a minute.
    client = new Redis(redis.url);
    client.on('error', () => {});
    held = heldUpstream();
    const logger = {
      info() {},
      warn() {},
      debug() {},
      // Only the store's own failures: the request log reports the 503s too.
      error: (object: Record<string, unknown>) => (object.event === 'store_failed' ? logged.push({ event: object.event, operation: object.operation }) : undefined),
      child: () => logger,
    };
    const gateway = createGateway({
      auth: { keys: [KEY] },
      routes: [
        { match: HELD_MODEL, upstream: held },
        { match: '*', upstream: createSimulator().upstreams.chat },
      ],
      responseStore: redisResponseStore({ client, prefix: `outage-${mount}:` }),
      responses: { storeTimeoutMs: TIMEOUT_MS, storeRetryMs: RETRY_MS },
      onError: ({ error }) => errors.push({ status: error.status, message: error.message }),
      logger,
    });
    app = await startApp(mount, gateway);
    openai = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });

  afterAll(async () => {
    await app?.close();
    client?.disconnect();
    await redis?.stop();
  });

  const previousTurn = (id: string) => openai.responses.create({ model: MODEL, input: 'And then?', previous_response_id: id });

  async function expectStoreUnavailable(call: () => Promise<unknown>): Promise<void> {
    const error = await failure(call);
    expect(error).toBeInstanceOf(APIError);
    const apiError = error as APIError;
    expect(apiError.status).toBe(503);
    expect(Number(apiError.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(apiError.message).toContain('response store is unavailable');
    expect(apiError.message).not.toContain('127.0.0.1');
  }

  it("frozen: a streamed answer's response.completed is held by the time-out at most, reads answer 503, and the store is used again once Redis answers", async () => {
    const first = await openai.responses.create({ model: MODEL, input: 'Hi.' });
    expect(storeOf(first)).toBe(true);

    // The room is checked and the upstream called while Redis answers; it freezes before the answer ends.
    const stream = await openai.responses.create({ model: HELD_MODEL, input: 'Hi.', stream: true });
    const events = stream[Symbol.asyncIterator]();
    expect((await events.next()).value?.type).toBe('response.created');
    await held.calledTimes(1);
    redis.pause();
    held.complete(0);
    const rest = await timed(async () => {
      const types: string[] = [];
      for (let event = await events.next(); !event.done; event = await events.next()) types.push(event.value.type);
      return types;
    });
    expect(rest.value).toContain('response.completed');
    expect(rest.ms).toBeLessThan(BOUND_MS);
    expect(errors.at(-1)).toMatchObject({ status: 503, message: expect.stringContaining('response store') });
    expect(logged).toEqual([{ event: 'store_failed', operation: 'put' }]);

    // Left alone after that failure: a read answers 503 at once.
    const read = await timed(() => expectStoreUnavailable(() => previousTurn(first.id)));
    expect(read.ms).toBeLessThan(SLOW_MS);

    redis.resume();
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS + 200));
    const next = await previousTurn(first.id);
    expect(next.status).toBe('completed');
    expect(storeOf(next)).toBe(true);
    expect(logged).toHaveLength(1);
  });

  it('stopped: every answer comes within the time-out, a previous_response_id turn gets 503 naming the store, one call per back-off waits', async () => {
    const first = await openai.responses.create({ model: MODEL, input: 'Hi.' });
    const failuresBefore = logged.length;
    const errorsBefore = errors.length;
    await redis.stop();

    const calls: { ms: number; startedAt: number }[] = [];
    const plain = await timed(() => openai.responses.create({ model: MODEL, input: 'Hi.' }).withResponse());
    calls.push(plain);
    expect(plain.value.data.status).toBe('completed');
    // Answered, not stored, and told so.
    expect(storeOf(plain.value.data)).toBe(false);
    expect(plain.value.response.headers.get('x-modelgate-warnings')).toContain('not stored');

    const streamed = await timed(async () => {
      const types: string[] = [];
      for await (const event of await openai.responses.create({ model: MODEL, input: 'Hi.', stream: true })) types.push(event.type);
      return types;
    });
    calls.push(streamed);
    expect(streamed.value.at(-1)).toBe('response.completed');

    calls.push(await timed(() => expectStoreUnavailable(() => previousTurn(first.id))));
    calls.push(await timed(() => expectStoreUnavailable(() => openai.responses.retrieve(first.id))));

    for (const call of calls) expect(call.ms).toBeLessThan(BOUND_MS);
    // The calls made within one back-off of the first: only the first waited for the time-out.
    const withinBackoff = calls.filter((call) => call.startedAt < calls[0]!.startedAt + RETRY_MS - 200);
    expect(withinBackoff.length).toBeGreaterThanOrEqual(3);
    expect(withinBackoff.filter((call) => call.ms >= SLOW_MS)).toEqual([calls[0]]);
    expect(logged.length - failuresBefore).toBe(1);
    // onError heard of each: the answer not stored, the stream not stored, and the two 503s.
    const heard = errors.slice(errorsBefore);
    expect(heard.length).toBeGreaterThanOrEqual(3);
    for (const error of heard) expect(error).toMatchObject({ status: 503, message: expect.stringContaining('response store') });
  });
});
