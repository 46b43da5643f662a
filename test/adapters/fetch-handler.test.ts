/**
 * `createFetchHandler` called the way a Next.js route handler calls it
 * (`export const POST = (request: Request) => handler(request)`): a plain
 * `Request` in, a `Response` out, no server. The path from the URL's `/v1`
 * segment on, streams one event per chunk, the request's signal and a
 * cancelled body both aborting the upstream, the body limit in the caller's format.
 */
import { DEFAULT_CATALOG } from 'modelgate';
import { createFetchHandler, gatewayPath } from 'modelgate/fetch';
import { createSimulator } from 'modelgate/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { recordUpstream } from '../helpers/recording-upstream.js';

const BASE = 'http://localhost:3000/api';
const LIMIT = 4096;
const user = [{ role: 'user', content: 'Write a long paragraph about the history of lighthouses.' }];

// 20 tokens per second: a whole answer takes seconds, so an abort lands mid-stream.
const sim = createSimulator({ pace: { tokensPerSecond: 20 } });
const messages = recordUpstream(sim.upstreams.messages);
const chat = recordUpstream(sim.upstreams.chat);
const handler = createFetchHandler({
  auth: AUTH,
  maxBodyBytes: LIMIT,
  routes: [
    { match: (model) => DEFAULT_CATALOG.has(model), upstream: messages },
    { match: '*', upstream: chat },
  ],
});
// What a Next.js `app/api/v1/[...path]/route.ts` exports.
const POST = (request: Request) => handler(request);
const GET = (request: Request) => handler(request);

function chatRequest(body: unknown, init: RequestInit = {}): Request {
  return new Request(`${BASE}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });
}

afterAll(() => handler.gateway.close());

describe('gatewayPath', () => {
  it.each([
    ['http://h/v1/models?limit=5', '/v1/models?limit=5'],
    ['http://h/api/v1/chat/completions', '/v1/chat/completions'],
    ['http://h/api/v1', '/v1'],
    ['http://h/v1', '/v1'],
    ['http://h/api/v1x/models', '/api/v1x/models'],
    ['http://h/health', '/health'],
  ])('%s → %s', (url, path) => {
    expect(gatewayPath(url)).toBe(path);
  });

  // Servers may hand over the request line as it came (@hono/node-server does for plain paths):
  // what the WHATWG URL parser would change must come out as the parser has it.
  it.each([
    ['http://h/api/v1/models?limit=5&after=m_1', '/v1/models?limit=5&after=m_1'],
    ['http://h/v1/./models', '/v1/models'],
    ['http://h/api/../v1/models', '/v1/models'],
    ['http://h/api/v1/%2e%2e/models', '/api/models'],
    ['http://h/v1/models?', '/v1/models'],
    ['http://h/v1/models#part', '/v1/models'],
    ['http://h/v1/mo dels', '/v1/mo%20dels'],
    ['http://h\\api\\v1\\models', '/v1/models'],
    ["http://h/v1/models?name='x'", '/v1/models?name=%27x%27'],
    ['http://h/v1/models?q=a b', '/v1/models?q=a%20b'],
    ['http://h/v1/caf\u00e9', '/v1/caf%C3%A9'],
    ['HTTPS://H:8443/v1/models', '/v1/models'],
  ])('takes %s as the URL parser does → %s', (url, path) => {
    expect(gatewayPath(url)).toBe(path);
  });
});

describe('createFetchHandler as a route handler', () => {
  it('answers a chat completion under /api/v1, and lists models on GET', async () => {
    const response = await POST(chatRequest({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toMatch(/\S/);
    const body = (await response.json()) as { object: string; model: string };
    expect(body).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini' });

    const models = await GET(new Request(`${BASE}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } }));
    expect(models.status).toBe(200);
    expect(((await models.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('answers a body that stops arriving with 408 once bodyTimeoutMs passes, and cancels the rest of it', async () => {
    const slow = createFetchHandler({ auth: AUTH, bodyTimeoutMs: 100 });
    let cancelled: unknown;
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        // The start of a body, then nothing more: no content-length, so it is read chunk by chunk.
        controller.enqueue(new TextEncoder().encode('{"model":"gpt-4o-mini",'));
      },
      cancel(reason) {
        cancelled = reason ?? 'cancelled';
      },
    });
    const request = new Request(`${BASE}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: trickle,
      duplex: 'half',
    } as RequestInit);
    const started = Date.now();
    const response = await slow(request);
    expect(response.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('100 ms') } });
    await vi.waitFor(() => expect(cancelled).toBeDefined(), { timeout: 2000 });
    await slow.gateway.close();
  });

  it('answers a wrong key with 401 in the chat format, and an unknown path with 404', async () => {
    const response = await POST(chatRequest({ model: 'gpt-4o-mini', messages: user }, { headers: { authorization: 'Bearer nope', 'content-type': 'application/json' } }));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });
    const unknown = await GET(new Request(`${BASE}/v1/nothing-here`, { headers: { authorization: `Bearer ${KEY}` } }));
    expect(unknown.status).toBe(404);
  });

  it('streams one whole server-sent event per chunk', async () => {
    const sender = createFetchHandler({ auth: AUTH });
    try {
      const response = await sender(chatRequest({ model: 'vendora-haiku-4-5', stream: true, messages: [{ role: 'user', content: 'Hi' }] }));
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = response.body!.getReader();
      const events: string[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        events.push(new TextDecoder().decode(value));
      }
      expect(events.length).toBeGreaterThan(3);
      // SSE: an event is its lines ended by one blank line; every chunk is exactly one.
      for (const event of events) expect(event).toMatch(/^data: [^\n]*\n\n$/);
      expect(events.at(-1)).toBe('data: [DONE]\n\n');
    } finally {
      await sender.gateway.close();
    }
  });

  it("aborts the upstream when the request's signal aborts (the client left)", async () => {
    const before = messages.calls.length;
    const controller = new AbortController();
    const response = await POST(chatRequest({ model: 'vendora-sonnet-4-6', stream: true, messages: user }, { signal: controller.signal }));
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const call = messages.calls[before];
    await vi.waitFor(() => expect(call?.endedAt).toBeDefined(), { timeout: 2000 });
    expect(call?.completed).toBe(false);
    expect(call?.abortedAt).toBeDefined();
    await reader.cancel().catch(() => {});
  });

  it('aborts the upstream when the response body is cancelled', async () => {
    const before = chat.calls.length;
    const response = await POST(chatRequest({ model: 'gpt-4o', stream: true, messages: user }));
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    const call = chat.calls[before];
    await vi.waitFor(() => expect(call?.endedAt).toBeDefined(), { timeout: 2000 });
    expect(call?.completed).toBe(false);
    expect(call?.abortedAt).toBeDefined();
  });

  it('answers a body over the limit with 413 in the caller format, announced or streamed', async () => {
    const big = JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'x'.repeat(LIMIT) }] });
    const announced = await handler(
      new Request(`${BASE}/v1/messages`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'content-length': String(big.length) }, body: big }),
    );
    expect(announced.status).toBe(413);
    expect(await announced.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });

    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 1000) controller.enqueue(bytes.slice(at, at + 1000));
        controller.close();
      },
    });
    const streamed = await POST(chatRequest({}, { body: stream, duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: { message: expect.stringContaining(String(LIMIT)) } });
  });

  it('answers a request whose body the app already read with a 500, and tells onError what to change', async () => {
    const causes: unknown[] = [];
    const strict = createFetchHandler({ auth: AUTH, onError: ({ error }) => causes.push(error.cause) });
    try {
      const request = chatRequest({ model: 'gpt-4o-mini', messages: user });
      await request.json();
      const response = await strict(request);
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: { message: expect.any(String) } });
      expect(String(causes[0])).toContain('already read');
    } finally {
      await strict.gateway.close();
    }
  });
});
