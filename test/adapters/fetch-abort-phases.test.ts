/**
 * The fetch handler gives the gateway a light AbortTrigger fired by
 * `request.signal` (and by a cancelled response body). The client leaving (request.signal) or the
 * response body being cancelled must still abort the upstream in every phase,
 * with a custom upstream (reads call.signal: a real AbortSignal) and with the
 * built-in HTTP upstream (listens on the light source through abortSourceOf).
 * Also: gatewayRequest.signal as the app sees it, an already aborted signal,
 * and what is left behind (listeners, timers).
 */
import { getEventListeners } from 'node:events';
import { createGateway, openAICompatible, type GatewayRequest, type Upstream, type UpstreamCall, type UpstreamResponse } from 'modelgate';
import { createFetchHandler } from 'modelgate/fetch';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';
import { abortSourceOf } from '../../src/signals/abort-source.js';

const URL_ = 'http://localhost:3000/v1/chat/completions';
const user = [{ role: 'user', content: 'Hi' }];
const enc = new TextEncoder();

function chatRequest(body: unknown, signal?: AbortSignal): Request {
  return new Request(URL_, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const never = new Promise<never>(() => {});

interface Probe {
  call?: UpstreamCall;
  abortedAt?: number;
  bodyReturned?: boolean;
}

/** A custom chat upstream; `phase` decides where it stalls. */
function probeUpstream(probe: Probe, phase: 'before-head' | 'mid-stream' | 'mid-json'): Upstream {
  return {
    name: 'probe',
    format: 'chat',
    async send(call) {
      probe.call = call;
      call.signal.addEventListener('abort', () => {
        probe.abortedAt = Date.now();
      });
      if (phase === 'before-head') {
        await new Promise((_r, reject) => call.signal.addEventListener('abort', () => reject(call.signal.reason)));
      }
      async function* body(): AsyncGenerator<Uint8Array> {
        try {
          if (phase === 'mid-stream') {
            yield enc.encode(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] })}\n\n`);
          } else {
            yield enc.encode('{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[');
          }
          // stall (until aborted)
          await new Promise((_r, reject) => {
            if (call.signal.aborted) reject(call.signal.reason);
            call.signal.addEventListener('abort', () => reject(call.signal.reason));
          });
        } finally {
          probe.bodyReturned = true;
        }
      }
      const contentType = phase === 'mid-stream' ? 'text/event-stream' : 'application/json';
      return { status: 200, headers: { 'content-type': contentType }, body: body() } satisfies UpstreamResponse;
    },
  };
}

const handlers: Array<{ gateway: { close(): Promise<void> } }> = [];
afterAll(async () => {
  for (const h of handlers) await h.gateway.close();
});

function handlerFor(upstream: Upstream, extra: Record<string, unknown> = {}) {
  const h = createFetchHandler({ auth: AUTH, routes: [{ match: '*', upstream }], ...extra });
  handlers.push(h);
  return h;
}

/** Sends a chat request whose upstream stalls at `phase`; resolves once the upstream holds the call. */
async function callStalledAt(phase: 'before-head' | 'mid-json', stream: boolean) {
  const probe: Probe = {};
  const client = new AbortController();
  const pending = handlerFor(probeUpstream(probe, phase))(chatRequest({ model: 'gpt-4o', ...(stream ? { stream } : {}), messages: user }, client.signal));
  await vi.waitFor(() => expect(probe.call).toBeDefined());
  return { probe, client, pending };
}

describe('fetch handler, custom upstream (call.signal): the client leaving aborts the upstream', () => {
  it('non-streamed, before the head', async () => {
    const { probe, client, pending } = await callStalledAt('before-head', false);
    const t = Date.now();
    client.abort();
    const response = await pending;
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(probe.abortedAt).toBeDefined();
    expect(probe.abortedAt! - t).toBeLessThan(1000);
  });

  it('streamed, before the head', async () => {
    const { probe, client, pending } = await callStalledAt('before-head', true);
    client.abort();
    await pending;
    expect(probe.abortedAt).toBeDefined();
  });

  it('streamed, during the stream (request.signal)', async () => {
    const probe: Probe = {};
    const h = handlerFor(probeUpstream(probe, 'mid-stream'));
    const client = new AbortController();
    const response = await h(chatRequest({ model: 'gpt-4o', stream: true, messages: user }, client.signal));
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(probe.abortedAt).toBeUndefined();
    client.abort();
    await vi.waitFor(() => expect(probe.abortedAt).toBeDefined(), { timeout: 2000 });
    await vi.waitFor(() => expect(probe.bodyReturned).toBe(true), { timeout: 2000 });
    await reader.cancel().catch(() => {});
  });

  it('streamed, response body cancelled', async () => {
    const probe: Probe = {};
    const h = handlerFor(probeUpstream(probe, 'mid-stream'));
    const response = await h(chatRequest({ model: 'gpt-4o', stream: true, messages: user }));
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await vi.waitFor(() => expect(probe.abortedAt).toBeDefined(), { timeout: 2000 });
    await vi.waitFor(() => expect(probe.bodyReturned).toBe(true), { timeout: 2000 });
  });

  it('non-streamed, while its answer is being read', async () => {
    const { probe, client, pending } = await callStalledAt('mid-json', false);
    await sleep(30);
    expect(probe.abortedAt).toBeUndefined();
    client.abort();
    const response = await pending;
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(probe.abortedAt).toBeDefined();
    expect(probe.bodyReturned).toBe(true);
  });

  it('request.signal already aborted when the handler runs: the upstream is aborted at once (or not called)', async () => {
    const probe: Probe = {};
    const h = handlerFor(probeUpstream(probe, 'before-head'));
    const request = chatRequest({ model: 'gpt-4o', messages: user }, AbortSignal.abort());
    const t = Date.now();
    const response = await h(request);
    expect(Date.now() - t).toBeLessThan(2000);
    expect(response.status).toBeGreaterThanOrEqual(400);
    if (probe.call) expect(probe.call.signal.aborted).toBe(true);
  });
});

describe('fetch handler, gatewayRequest.signal as the app sees it', () => {
  it('is a real AbortSignal, not aborted, that aborts when the client leaves (read in auth.verify)', async () => {
    let seen: GatewayRequest | undefined;
    const probe: Probe = {};
    const h = handlerFor(probeUpstream(probe, 'before-head'), {
      auth: {
        verify: (key: string, request: GatewayRequest) => {
          seen = request;
          return key === KEY ? { id: 'k' } : null;
        },
      },
    });
    const client = new AbortController();
    const pending = h(chatRequest({ model: 'gpt-4o', messages: user }, client.signal));
    await vi.waitFor(() => expect(probe.call).toBeDefined());
    const signal = seen!.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    const fired = vi.fn();
    signal.addEventListener('abort', fired);
    client.abort();
    await pending;
    expect(signal.aborted).toBe(true);
    expect(fired).toHaveBeenCalledTimes(1);
    expect((signal.reason as DOMException).name).toBe('AbortError');
  });

  it('an app assigning request.signal in verify: the gateway obeys that signal', async () => {
    const mine = new AbortController();
    const probe: Probe = {};
    const h = handlerFor(probeUpstream(probe, 'before-head'), {
      auth: {
        verify: (key: string, request: GatewayRequest) => {
          request.signal = mine.signal;
          return key === KEY ? { id: 'k' } : null;
        },
      },
    });
    const pending = h(chatRequest({ model: 'gpt-4o', messages: user }));
    await vi.waitFor(() => expect(probe.call).toBeDefined());
    mine.abort();
    await pending;
    expect(probe.abortedAt).toBeDefined();
  });
});

describe('fetch handler: nothing left behind', () => {
  it('after a non-streamed and a streamed answer, the request light source holds no listener; request.signal keeps one (as before)', async () => {
    let seen: GatewayRequest | undefined;
    const quick: Upstream = {
      name: 'quick',
      format: 'chat',
      async send(call) {
        const json = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
        if (call.stream) {
          const chunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] };
          const text = `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
          return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: (async function* () { yield enc.encode(text); })() };
        }
        return { status: 200, headers: { 'content-type': 'application/json' }, body: (async function* () { yield enc.encode(JSON.stringify(json)); })() };
      },
    };
    const h = handlerFor(quick, {
      auth: { verify: (key: string, request: GatewayRequest) => ((seen = request), key === KEY ? { id: 'k' } : null) },
    });
    for (const stream of [false, true]) {
      const client = new AbortController();
      const request = chatRequest({ model: 'gpt-4o', stream, messages: user }, client.signal);
      const response = await h(request);
      expect(response.status).toBe(200);
      await response.text();
      await sleep(10);
      const source: unknown = abortSourceOf(seen!);
      const count = source instanceof EventTarget ? getEventListeners(source, 'abort').length : ((source as { listeners?: unknown[] }).listeners?.length ?? 0);
      expect(count).toBe(0);
      // The handler's own listener on request.signal stays (the Request is the server's, gone with the exchange).
      expect(getEventListeners(request.signal, 'abort').length).toBeLessThanOrEqual(1);
    }
  });

  it('no timers left after 50 requests (deadlines released)', async () => {
    const quick: Upstream = {
      name: 'quick2',
      format: 'chat',
      async send() {
        const json = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };
        return { status: 200, headers: { 'content-type': 'application/json' }, body: (async function* () { yield enc.encode(JSON.stringify(json)); })() };
      },
    };
    const h = handlerFor(quick);
    // Unref'd timers (the deadline's) are not in process.getActiveResourcesInfo(): track them instead.
    const created = new Set<NodeJS.Timeout>();
    const original = globalThis.setTimeout;
    globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const timer = original(fn, ms, ...args);
      if ((ms ?? 0) >= 1000) created.add(timer);
      return timer;
    }) as typeof setTimeout;
    try {
      for (let i = 0; i < 50; i++) await (await h(chatRequest({ model: 'gpt-4o', messages: user }))).text();
    } finally {
      globalThis.setTimeout = original;
    }
    await sleep(10);
    const pending = [...created].filter((timer) => !(timer as unknown as { _destroyed: boolean })._destroyed);
    expect(created.size).toBeGreaterThan(0);
    expect(pending.length).toBe(0);
  });
});

describe('fetch handler, built-in HTTP upstream (light source through abortSourceOf): the client leaving closes the upstream connection', () => {
  let stub: StubUpstream | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  function builtIn(url: string) {
    return handlerFor(openAICompatible({ baseURL: `${url}/v1`, apiKey: 'sk-up' }));
  }

  it('non-streamed, before the head', async () => {
    stub = await startStubUpstream([{ kind: 'hang' }]);
    const h = builtIn(stub.url);
    const client = new AbortController();
    const pending = h(chatRequest({ model: 'gpt-4o', messages: user }, client.signal));
    await vi.waitFor(() => expect(stub!.requests.length).toBe(1));
    client.abort();
    await pending;
    await Promise.race([stub.closed(0), sleep(2000).then(() => { throw new Error('upstream connection not closed'); })]);
  });

  it('streamed, during the stream', async () => {
    const chunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] };
    stub = await startStubUpstream([{ kind: 'sse', events: [{ data: JSON.stringify(chunk) }], then: 'hang' }]);
    const h = builtIn(stub.url);
    const client = new AbortController();
    const response = await h(chatRequest({ model: 'gpt-4o', stream: true, messages: user }, client.signal));
    const reader = response.body!.getReader();
    await reader.read();
    client.abort();
    await Promise.race([stub.closed(0), sleep(2000).then(() => { throw new Error('upstream connection not closed'); })]);
    await reader.cancel().catch(() => {});
  });

  it('non-streamed, while its answer is being read', async () => {
    stub = await startStubUpstream([
      {
        kind: 'handler',
        handle: (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"id":"c","choices":[');
        },
      },
    ]);
    const h = builtIn(stub.url);
    const client = new AbortController();
    const pending = h(chatRequest({ model: 'gpt-4o', messages: user }, client.signal));
    await vi.waitFor(() => expect(stub!.requests.length).toBe(1));
    await sleep(50);
    client.abort();
    await pending;
    await Promise.race([stub.closed(0), sleep(2000).then(() => { throw new Error('upstream connection not closed'); })]);
  });
});

describe('gateway.handle with a caller-provided frozen / proxied request', () => {
  it('a frozen request is served and its signal obeyed', async () => {
    const probe: Probe = {};
    const gateway = createGateway({ auth: AUTH, routes: [{ match: '*', upstream: probeUpstream(probe, 'before-head') }] });
    try {
      const client = new AbortController();
      const request = Object.freeze({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: Object.freeze({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }),
        rawBody: enc.encode(JSON.stringify({ model: 'gpt-4o', messages: user })),
        signal: client.signal,
      });
      const pending = gateway.handle(request);
      await vi.waitFor(() => expect(probe.call).toBeDefined());
      client.abort();
      const response = await pending;
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(probe.abortedAt).toBeDefined();
    } finally {
      await gateway.close();
    }
  });

  it('a Proxy request is served and its signal obeyed', async () => {
    const probe: Probe = {};
    const gateway = createGateway({ auth: AUTH, routes: [{ match: '*', upstream: probeUpstream(probe, 'before-head') }] });
    try {
      const client = new AbortController();
      const target = {
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        rawBody: enc.encode(JSON.stringify({ model: 'gpt-4o', messages: user })),
        signal: client.signal,
      };
      const pending = gateway.handle(new Proxy(target, {}));
      await vi.waitFor(() => expect(probe.call).toBeDefined());
      client.abort();
      await pending;
      expect(probe.abortedAt).toBeDefined();
    } finally {
      await gateway.close();
    }
  });
});
