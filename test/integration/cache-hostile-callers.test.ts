/**
 * The response cache against callers that misbehave, over real HTTP: a
 * leader whose client leaves, an upstream that times out or a store that
 * fails never leaves a key locked (the next identical request goes upstream
 * at once, not after the wait); a Responses hit still stores its record.
 */
import { type GatewayOptions, memoryResponseCache, memoryResponseStore, type ResponseCacheStore } from 'modelgate';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedAnswerUpstream, TOOL_CALLS } from '../helpers/fixed-answer-upstream.js';
import { type HeldUpstream, heldUpstream } from '../helpers/held-upstream.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-hostile-caller-0123456789';
const MODEL = 'gpt-4o';
/** Identical misses wait this long for a leader; a lock left behind would show as a wait this long. */
const WAIT_MS = 4000;
const chatBody = (stream: boolean) => ({ model: MODEL, stream, messages: [{ role: 'user', content: 'Tell a long story.' }] });

let started: StartedApp[] = [];
afterEach(async () => {
  await Promise.all(started.map((app) => app.close()));
  started = [];
});

async function start(options: Omit<GatewayOptions, 'auth'>): Promise<StartedApp> {
  const app = await startApp('node', { auth: { keys: [{ key: KEY, id: 'hostile' }] }, ...options });
  started.push(app);
  return app;
}

function post(app: StartedApp, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Reads a stream's first chunk, then leaves. */
async function leaveAfterFirstChunk(app: StartedApp, body: unknown): Promise<void> {
  const controller = new AbortController();
  const response = await post(app, body, controller.signal);
  expect(response.headers.get('x-modelgate-cache')).toBe('miss');
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.cancel().catch(() => undefined);
}

/** Takes the store failures the gateway logs, so they do not print. */
const quietLogger = { info: () => {}, debug: () => {}, warn: () => {}, error: () => {}, child: () => quietLogger };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the next identical call takes to reach the upstream (the call before it is `index - 1`). */
async function msUntilUpstreamCall(upstream: HeldUpstream, app: StartedApp, index: number): Promise<{ ms: number; response: Promise<Response> }> {
  const startedAt = performance.now();
  const response = post(app, chatBody(true));
  await upstream.calledTimes(index + 1);
  return { ms: performance.now() - startedAt, response };
}

describe('a fill lock always ends', () => {
  it.each(['abort', 'drain'] as const)('the leader\'s client leaves mid-stream (onClientAbort: %s): the next request goes upstream at once', async (onClientAbort) => {
    const upstream = heldUpstream();
    const app = await start({ routes: [{ match: MODEL, upstream, retries: 0, onClientAbort }], cache: { store: memoryResponseCache(), waitMs: WAIT_MS } });
    await leaveAfterFirstChunk(app, chatBody(true));
    await sleep(100);
    const next = await msUntilUpstreamCall(upstream, app, 1);
    expect(next.ms).toBeLessThan(WAIT_MS / 2);
    upstream.complete(1);
    if (onClientAbort === 'drain') upstream.complete(0);
    const answer = await next.response;
    expect(answer.headers.get('x-modelgate-cache')).toBe('miss');
    expect(await answer.text()).toContain('[DONE]');
    // The completed answer was stored: the third is a hit.
    const third = await post(app, chatBody(false));
    expect(third.headers.get('x-modelgate-cache')).toBe('hit');
    expect(upstream.calls).toHaveLength(2);
  });

  it('the upstream times out before its head: a 504, and the next request goes upstream at once', async () => {
    let calls = 0;
    const upstream = fixedAnswerUpstream('chat');
    const hanging = {
      name: 'hangs-once',
      format: 'chat' as const,
      send: async (call: Parameters<typeof upstream.send>[0]) => {
        if (calls++ === 0) await new Promise((_resolve, reject) => call.signal.addEventListener('abort', () => reject(call.signal.reason as Error), { once: true }));
        return upstream.send(call);
      },
    };
    const app = await start({ routes: [{ match: MODEL, upstream: hanging, retries: 0 }], requestTimeoutMs: 300, cache: { store: memoryResponseCache(), waitMs: WAIT_MS } });
    const first = await post(app, chatBody(false));
    expect(first.status).toBe(504);
    const startedAt = performance.now();
    const second = await post(app, chatBody(false));
    expect(second.status).toBe(200);
    expect(second.headers.get('x-modelgate-cache')).toBe('miss');
    expect(performance.now() - startedAt).toBeLessThan(WAIT_MS / 2);
    expect(calls).toBe(2);
  });

  it('a store that fails between lookup and fill: no error, the lock is released, the next request goes upstream at once', async () => {
    const inner = memoryResponseCache();
    let failFills = true;
    let releases = 0;
    const store: ResponseCacheStore = {
      lookup: (key, options) => inner.lookup(key, options),
      fill: (key, entry, options) => (failFills ? Promise.reject(new Error('connection reset')) : inner.fill(key, entry, options)),
      release: (key, token) => {
        releases++;
        return inner.release(key, token);
      },
    };
    const upstream = fixedAnswerUpstream('chat');
    const app = await start({ routes: [{ match: MODEL, upstream, retries: 0 }], cache: { store, waitMs: WAIT_MS, storeRetryMs: 1 }, logger: quietLogger });
    const first = await post(app, chatBody(false));
    expect([first.status, first.headers.get('x-modelgate-cache')]).toEqual([200, 'miss']);
    await first.text();
    // The failed fill's lock is released once the store's 1 ms back-off is over: waited for, with a deadline.
    for (const deadline = Date.now() + 5000; releases === 0 && Date.now() < deadline; ) await sleep(10);
    expect(releases).toBe(1);
    failFills = false;
    const startedAt = performance.now();
    const second = await post(app, chatBody(false));
    expect([second.status, second.headers.get('x-modelgate-cache')]).toEqual([200, 'miss']);
    expect(performance.now() - startedAt).toBeLessThan(WAIT_MS / 2);
    await second.text();
    const third = await post(app, chatBody(false));
    expect(third.headers.get('x-modelgate-cache')).toBe('hit');
    expect(upstream.calls).toBe(2);
  });
});

describe('who reads an entry', () => {
  const TEAM_KEYS = ['sk-team-key-one-0123456789', 'sk-team-key-two-0123456789'];
  const asKey = (app: StartedApp, key: string) =>
    fetch(`${app.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(chatBody(false)) });

  it.each(['principal', 'shared'] as const)('on a keyPassthrough route, a key never reads an entry another key filled (scope %s)', async (scope) => {
    const upstream = fixedAnswerUpstream('chat');
    const app = await startApp('node', {
      // Both keys are one principal: only the key the upstream answered tells them apart.
      auth: { verify: async (key) => (TEAM_KEYS.includes(key) ? { id: 'team' } : null) },
      routes: [{ match: MODEL, upstream, retries: 0, keyPassthrough: true }],
      cache: { store: memoryResponseCache(), scope },
    });
    started.push(app);
    const heads = [];
    for (const key of [TEAM_KEYS[0]!, TEAM_KEYS[1]!, TEAM_KEYS[0]!]) heads.push((await asKey(app, key)).headers.get('x-modelgate-cache'));
    expect(heads).toEqual(['miss', 'miss', 'hit']);
    expect(upstream.calls).toBe(2);
  });

  it('the anthropic-beta a messages upstream is sent is in the key; trace context is not', async () => {
    const upstream = fixedAnswerUpstream('messages');
    const app = await start({ routes: [{ match: 'vendora-sonnet-4-6', upstream, retries: 0 }], cache: { store: memoryResponseCache() } });
    const ask = (headers: Record<string, string>) =>
      fetch(`${app.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01', ...headers },
        body: JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 256, messages: [{ role: 'user', content: 'Weather in Paris and Oslo?' }] }),
      }).then((response) => response.headers.get('x-modelgate-cache'));
    const beta = { 'anthropic-beta': 'interleaved-thinking-2025-05-14' };
    expect(await ask({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).toBe('miss');
    expect(await ask(beta)).toBe('miss');
    expect(await ask({ ...beta, traceparent: '00-1af7651916cd43dd8448eb211c80319c-c7ad6b7169203331-01' })).toBe('hit');
    expect(await ask({})).toBe('hit');
    expect(await ask({ 'anthropic-version': '2024-01-01' })).toBe('miss');
    expect(upstream.calls).toBe(3);
  });
});

describe('bodies the key cannot hold', () => {
  it('a body nested past the key\'s depth bound (requestBounds raised) is answered as a bypass, not a 500', async () => {
    const upstream = fixedAnswerUpstream('chat');
    const app = await start({ routes: [{ match: MODEL, upstream, retries: 0 }], requestBounds: { maxDepth: 5000 }, cache: { store: memoryResponseCache() } });
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 600; level++) schema = { type: 'object', properties: { inner: schema } };
    const body = { ...chatBody(false), tools: [{ type: 'function', function: { name: 'deep', parameters: schema } }] };
    for (let round = 0; round < 2; round++) {
      const response = await post(app, body);
      expect([response.status, response.headers.get('x-modelgate-cache')]).toEqual([200, 'bypass']);
      await response.text();
    }
    expect(upstream.calls).toBe(2);
  });
});

describe('a Responses hit with store: true', () => {
  it('stores its own record: the next turn continues from the hit with previous_response_id', async () => {
    const upstream = fixedAnswerUpstream('chat');
    const app = await start({ routes: [{ match: MODEL, upstream, retries: 0 }], cache: { store: memoryResponseCache() }, responseStore: memoryResponseStore() });
    const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const ask = { model: MODEL, input: 'Weather in Paris and Oslo?', store: true };
    const miss = await client.responses.create(ask).withResponse();
    const hit = await client.responses.create(ask).withResponse();
    expect([miss.response.headers.get('x-modelgate-cache'), hit.response.headers.get('x-modelgate-cache')]).toEqual(['miss', 'hit']);
    expect(hit.data.id).not.toBe(miss.data.id);
    expect(upstream.calls).toBe(1);
    // The hit's record is kept: it can be read back and continued from.
    const stored = await client.responses.retrieve(hit.data.id);
    expect(stored.output.filter((item) => item.type === 'function_call').map((item) => item.call_id)).toEqual(TOOL_CALLS.map((call) => call.id));
    const next = await client.responses.create({
      model: MODEL,
      previous_response_id: hit.data.id,
      input: [{ type: 'function_call_output', call_id: TOOL_CALLS[0].id, output: 'Paris: 18 °C' }, { type: 'function_call_output', call_id: TOOL_CALLS[1].id, output: 'Oslo: 9 °C' }],
    }).withResponse();
    expect(next.response.headers.get('x-modelgate-cache')).toBe('bypass');
    expect(upstream.calls).toBe(2);
    // The upstream was sent the earlier turn: the hit's tool calls, then their results.
    const sent = upstream.bodies[1] as { messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }> };
    expect(sent.messages.find((message) => message.role === 'assistant')?.tool_calls?.map((call) => call.id)).toEqual(TOOL_CALLS.map((call) => call.id));
    expect(sent.messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(TOOL_CALLS.map((call) => call.id));
  });
});
