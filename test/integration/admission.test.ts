/**
 * Admission control through real HTTP and the official clients: past
 * `maxInFlight` the next call is refused at once in the caller's format
 * (503 `overloaded` / 529 `overloaded_error`, `retry-after`), open streams
 * hold their place until they end, `queueMs` admits a call when a place
 * frees, a queued client that leaves gives its place in line back, one
 * principal holds at most its share (and has at most that many calls
 * waiting), a freed place goes to the principal holding the fewest, and a
 * caller without a key never holds a place.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayOptions } from 'modelgate';
import { anthropicClient, AUTH, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { FIRST_WORDS, heldUpstream, type HeldUpstream } from '../helpers/held-upstream.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const MODEL = 'gpt-4o';
const ASK = [{ role: 'user' as const, content: 'Say hello.' }];

async function openStream(client: OpenAI) {
  const stream = await client.chat.completions.create({ model: MODEL, messages: ASK, stream: true });
  const chunks = stream[Symbol.asyncIterator]();
  const first = await chunks.next();
  expect(first.done).toBe(false);
  return { chunks, text: (first.value as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content };
}

async function drain(chunks: AsyncIterator<unknown>): Promise<void> {
  while (!(await chunks.next()).done);
}

describe.each(['express5', 'koa3'] as Mount[])('admission control on %s', (mount) => {
  let app: StartedApp | undefined;
  let upstream: HeldUpstream;

  async function start(admission: GatewayOptions['admission']): Promise<StartedApp> {
    upstream = heldUpstream();
    app = await startApp(mount, { auth: AUTH, routes: [{ match: '*', upstream, serveMessages: true }], admission });
    return app;
  }

  afterEach(async () => {
    for (const body of upstream.bodies) void body.return();
    await app?.close();
    app = undefined;
  });

  it('refuses the next call at once past maxInFlight, in both formats, while a stream is open; admits again once it ended', async () => {
    const { url } = await start({ maxInFlight: 1 });
    const chat = openAIClient(url);
    const open = await openStream(chat);
    expect(open.text).toBe(FIRST_WORDS);

    const startedAt = Date.now();
    const refused = await chat.chat.completions.create({ model: MODEL, messages: ASK }).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    const chatError = refused as InstanceType<typeof OpenAI.APIError>;
    expect(chatError.status).toBe(503);
    expect(chatError.code).toBe('overloaded');
    expect(chatError.headers?.get('retry-after')).toBe('1');

    const messagesError = await anthropicClient(url)
      .messages.create({ model: MODEL, max_tokens: 50, messages: ASK })
      .then(() => undefined, (error: unknown) => error);
    expect(messagesError).toBeInstanceOf(Anthropic.APIError);
    expect((messagesError as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((messagesError as { error?: { error?: { type?: string } } }).error?.error?.type).toBe('overloaded_error');
    // Refused, not queued: well under any upstream wait, and no upstream call was made for them.
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(upstream.calls).toHaveLength(1);

    upstream.complete(0);
    await drain(open.chunks);
    const next = await openStream(chat);
    upstream.complete(1);
    await drain(next.chunks);
    expect(upstream.calls).toHaveLength(2);
  });

  it('under a burst of ten times its capacity: every extra call is refused with no upstream call, the admitted streams complete, the count returns to zero', async () => {
    const CAPACITY = 6;
    // One key here: its share is every place, so the instance's own limit is what the burst meets.
    const { url } = await start({ maxInFlight: CAPACITY, maxPerPrincipal: CAPACITY, queueMs: 200, maxQueued: 2 });
    const chat = openAIClient(url);
    const admitted = await Promise.all(Array.from({ length: CAPACITY }, () => openStream(chat)));
    expect(upstream.calls).toHaveLength(CAPACITY);

    const burst = await Promise.all(
      Array.from({ length: CAPACITY * 10 }, (_, index) =>
        fetch(`${url}/v1/${index % 2 === 0 ? 'chat/completions' : 'messages'}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: ASK }),
        }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() })),
      ),
    );
    // Two waited in the bounded queue and timed out; every other call was refused at once. None reached the upstream.
    for (const [index, answer] of burst.entries()) {
      expect(answer.status).toBe(index % 2 === 0 ? 503 : 529);
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(answer.body).toContain(index % 2 === 0 ? '"overloaded"' : '"overloaded_error"');
    }
    expect(upstream.calls).toHaveLength(CAPACITY);

    // The calls admitted before the burst are untouched by it: each stream completes.
    for (let i = 0; i < CAPACITY; i++) upstream.complete(i);
    for (const stream of admitted) await drain(stream.chunks);
    expect(app!.gateway.load()).toEqual({ inFlight: 0, queued: 0 });
    const after = await openStream(chat);
    upstream.complete(CAPACITY);
    await drain(after.chunks);
  });

  it('queues a call for up to queueMs and admits it when the open stream ends', async () => {
    const { url } = await start({ maxInFlight: 1, queueMs: 10_000 });
    const chat = openAIClient(url);
    const open = await openStream(chat);
    const queued = openStream(chat);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(app!.gateway.load()).toEqual({ inFlight: 1, queued: 1 });
    expect(upstream.calls).toHaveLength(1);
    upstream.complete(0);
    await drain(open.chunks);
    const admitted = await queued;
    expect(admitted.text).toBe(FIRST_WORDS);
    upstream.complete(1);
    await drain(admitted.chunks);
  });

  it('removes a queued client that leaves, so its place in the bounded queue is free again', async () => {
    const { url } = await start({ maxInFlight: 1, queueMs: 10_000, maxQueued: 1 });
    const chat = openAIClient(url);
    const open = await openStream(chat);
    const leaving = new AbortController();
    const left = chat.chat.completions.create({ model: MODEL, messages: ASK, stream: true }, { signal: leaving.signal }).catch((error: unknown) => error);
    for (let waited = 0; app!.gateway.load().queued < 1 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app!.gateway.load().queued).toBe(1);
    leaving.abort();
    await left;
    for (let waited = 0; app!.gateway.load().queued > 0 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app!.gateway.load().queued).toBe(0);
    // The queue holds one: with the leaver still in it, this one would be refused at once.
    const queued = openStream(chat);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(app!.gateway.load()).toEqual({ inFlight: 1, queued: 1 });
    upstream.complete(0);
    await drain(open.chunks);
    const admitted = await queued;
    upstream.complete(1);
    await drain(admitted.chunks);
    expect(upstream.calls).toHaveLength(2);
  });

  it('counts requests, not only streams: an authenticated raw request is refused with retry-after before its body is parsed', async () => {
    const { url } = await start({ maxInFlight: 1 });
    const open = await openStream(openAIClient(url));
    const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{not json' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('overloaded');
    // Listings are no model calls: served while full.
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(models.status).toBe(200);
    upstream.complete(0);
    await drain(open.chunks);
  });
});

describe('admission metrics', () => {
  it('exports the calls in flight and the refusals by reason on the app registry', async () => {
    const { Registry } = await import('prom-client');
    const { createGateway } = await import('modelgate');
    const registry = new Registry();
    const upstream = heldUpstream();
    const gateway = createGateway({ auth: AUTH, routes: [{ match: '*', upstream }], admission: { maxInFlight: 1 }, prometheus: { registry } });
    const request = () => ({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      rawBody: Buffer.from(JSON.stringify({ model: MODEL, messages: ASK, stream: true })),
      signal: new AbortController().signal,
    });
    const open = await gateway.handle(request());
    expect(open.status).toBe(200);
    expect(await registry.metrics()).toMatch(/^modelgate_in_flight_calls 1$/m);
    expect((await gateway.handle(request())).status).toBe(503);
    expect(await registry.metrics()).toMatch(/^modelgate_admission_refusals_total\{reason="full"\} 1$/m);
    upstream.complete(0);
    if (open.type !== 'sse') throw new Error('expected a stream');
    for await (const chunk of open.body) void chunk;
    expect(await registry.metrics()).toMatch(/^modelgate_in_flight_calls 0$/m);
    await gateway.close();
  });
});

describe.each(['node', 'express5', 'hono'] as Mount[])('admission is fair between callers on %s', (mount) => {
  const KEY_A = 'sk-tenant-a-0123456789';
  const KEY_B = 'sk-tenant-b-0123456789';
  const TWO_TENANTS = { keys: [{ key: KEY_A, id: 'tenant-a' }, { key: KEY_B, id: 'tenant-b' }] };
  let app: StartedApp | undefined;
  let upstream: HeldUpstream;

  async function start(admission: GatewayOptions['admission'], auth: GatewayOptions['auth'] = TWO_TENANTS): Promise<StartedApp> {
    upstream = heldUpstream();
    app = await startApp(mount, { auth, routes: [{ match: '*', upstream, serveMessages: true }], admission });
    return app;
  }

  afterEach(async () => {
    for (const body of upstream.bodies) void body.return();
    await app?.close();
    app = undefined;
  });

  it('a principal holding long streams up to its share is refused one more, saying its share is full, while another principal is admitted', async () => {
    // Four places; by default one principal holds at most half of them.
    const { url } = await start({ maxInFlight: 4 });
    const a = openAIClient(url, KEY_A);
    const held = [await openStream(a), await openStream(a)];
    const refused = await a.chat.completions.create({ model: MODEL, messages: ASK }).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    const error = refused as InstanceType<typeof OpenAI.APIError>;
    expect([error.status, error.code, error.headers?.get('retry-after')]).toEqual([503, 'overloaded', '1']);
    expect(error.message).toContain('admission.maxPerPrincipal');
    expect(upstream.calls).toHaveLength(2);

    const b = await openStream(openAIClient(url, KEY_B));
    expect(b.text).toBe(FIRST_WORDS);
    expect(app!.gateway.load()).toEqual({ inFlight: 3, queued: 0 });
    for (let i = 0; i < 3; i++) upstream.complete(i);
    for (const stream of [...held, b]) await drain(stream.chunks);
  });

  it('a queued call of another principal gets the next freed place before the queued calls of the principal holding the most', async () => {
    const { url } = await start({ maxInFlight: 2, maxPerPrincipal: 2, queueMs: 10_000, maxQueued: 4 });
    const a = openAIClient(url, KEY_A);
    const held = [await openStream(a), await openStream(a)];
    let aAdmitted = false;
    const aQueued = openStream(a).then((stream) => ((aAdmitted = true), stream));
    for (let waited = 0; app!.gateway.load().queued < 1 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const bQueued = openStream(openAIClient(url, KEY_B));
    for (let waited = 0; app!.gateway.load().queued < 2 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app!.gateway.load()).toEqual({ inFlight: 2, queued: 2 });
    // One of a's streams ends: its place goes to b (holding none), though a's call waited longer.
    upstream.complete(0);
    await drain(held[0]!.chunks);
    const b = await bQueued;
    expect(b.text).toBe(FIRST_WORDS);
    expect(aAdmitted).toBe(false);
    expect(upstream.calls).toHaveLength(3);
    expect(app!.gateway.load()).toEqual({ inFlight: 2, queued: 1 });
    upstream.complete(1);
    await drain(held[1]!.chunks);
    const aLater = await aQueued;
    upstream.complete(2);
    upstream.complete(3);
    await drain(b.chunks);
    await drain(aLater.chunks);
  });

  it('a principal flooding the queue has at most its share waiting: the next is refused at once, and another principal still queues and is served first', async () => {
    const { url } = await start({ maxInFlight: 2, maxPerPrincipal: 2, queueMs: 10_000, maxQueued: 3 });
    const a = openAIClient(url, KEY_A);
    const held = [await openStream(a), await openStream(a)];
    const queuedUntil = async (count: number) => {
      for (let waited = 0; app!.gateway.load().queued < count && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const aQueued = [openStream(a)];
    await queuedUntil(1);
    aQueued.push(openStream(a));
    await queuedUntil(2);
    // a has its share (two) waiting: one more is refused at once, and the queue keeps room for others.
    const startedAt = Date.now();
    const refused = await a.chat.completions.create({ model: MODEL, messages: ASK }).then(() => undefined, (error: unknown) => error);
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    const error = refused as InstanceType<typeof OpenAI.APIError>;
    expect([error.status, error.code, error.headers?.get('retry-after')]).toEqual([503, 'overloaded', '10']);
    expect(error.message).toContain('admission.maxPerPrincipal');
    expect(app!.gateway.load()).toEqual({ inFlight: 2, queued: 2 });

    const bQueued = openStream(openAIClient(url, KEY_B));
    await queuedUntil(3);
    expect(app!.gateway.load()).toEqual({ inFlight: 2, queued: 3 });
    // One of a's streams ends: b, holding none, takes the place before a's older waiters.
    upstream.complete(0);
    await drain(held[0]!.chunks);
    const b = await bQueued;
    expect(b.text).toBe(FIRST_WORDS);
    expect(upstream.calls).toHaveLength(3);

    upstream.complete(1);
    upstream.complete(2);
    await drain(held[1]!.chunks);
    await drain(b.chunks);
    const aLater = await Promise.all(aQueued);
    upstream.complete(3);
    upstream.complete(4);
    for (const stream of aLater) await drain(stream.chunks);
    expect(app!.gateway.load()).toEqual({ inFlight: 0, queued: 0 });
  });

  it('a request without a key gets 401 at once and takes no place in the queue: a legitimate call sent meanwhile waits and is served', async () => {
    const { url } = await start({ maxInFlight: 1, queueMs: 3000, maxQueued: 1 }, { keys: [KEY] });
    const chat = openAIClient(url);
    const open = await openStream(chat);

    const startedAt = Date.now();
    const noKey = fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: ASK }),
    }).then(async (response) => ({ status: response.status, ms: Date.now() - startedAt, body: await response.text() }));
    const legitimate = openStream(chat);
    const refused = await noKey;
    expect(refused.status).toBe(401);
    expect(refused.ms).toBeLessThan(1000);
    for (let waited = 0; app!.gateway.load().queued < 1 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app!.gateway.load()).toEqual({ inFlight: 1, queued: 1 });

    upstream.complete(0);
    await drain(open.chunks);
    const served = await legitimate;
    expect(served.text).toBe(FIRST_WORDS);
    upstream.complete(1);
    await drain(served.chunks);
    expect(upstream.calls).toHaveLength(2);
  });
});
