import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError, isGatewayError } from '../../../src/errors.js';
import { messagesUpstream } from '../../../src/upstreams/messages-upstream.js';
import { readBody } from '../../../src/upstreams/read-body.js';
import { retryAfterMs } from '../../../src/upstreams/retry-after.js';
import type { RouteTarget } from '../../../src/routing/routes.js';
import { type SendWithFallbackOptions, sendWithFallback } from '../../../src/routing/send-with-fallback.js';
import type { Upstream, UpstreamCall } from '../../../src/upstreams/upstream.js';
import { type StubReply, type StubUpstream, startStubUpstream } from '../../helpers/stub-upstream.js';

const stubs: StubUpstream[] = [];
const upstreams: Upstream[] = [];

afterEach(async () => {
  for (const upstream of upstreams.splice(0)) await upstream.close?.();
  for (const stub of stubs.splice(0)) await stub.close();
});

async function target(name: string, replies: StubReply[], model = `${name}-model`): Promise<RouteTarget & { stub: StubUpstream }> {
  const stub = await startStubUpstream(replies);
  stubs.push(stub);
  const upstream = messagesUpstream({ baseURL: stub.url, name, apiKey: 'k' });
  upstreams.push(upstream);
  return { upstream, model, stub };
}

const makeCall = (t: RouteTarget): UpstreamCall => ({
  operation: 'messages',
  body: { model: t.model },
  headers: {},
  signal: new AbortController().signal,
});

const options = (over: Partial<SendWithFallbackOptions> = {}): SendWithFallbackOptions => ({
  signal: new AbortController().signal,
  backoffMs: 10,
  ...over,
});

const ok: StubReply = { kind: 'json', body: { ok: true } };
const status = (code: number, headers: Record<string, string> = {}): StubReply => ({
  kind: 'json',
  status: code,
  headers,
  body: { type: 'error', error: { type: 'api_error', message: `status ${code}` } },
});

describe('sendWithFallback', () => {
  it('retries the same target once on a 5xx, then succeeds', async () => {
    const a = await target('a', [status(503), ok]);
    const result = await sendWithFallback([a], makeCall, options());
    expect(result.response.status).toBe(200);
    expect(result.target).toBe(a);
    expect(result.attempts.map((x) => `${x.upstream}:${x.status}`)).toEqual(['a:503', 'a:200']);
    expect(JSON.parse(new TextDecoder().decode((await readBody(result.response.body)).bytes))).toEqual({ ok: true });
  });

  it('falls back in order on 500, 429 and 529 and sends each target its own model id', async () => {
    const a = await target('a', [status(500)]);
    const b = await target('b', [status(429)]);
    const c = await target('c', [status(529)]);
    const d = await target('d', [ok]);
    const result = await sendWithFallback([a, b, c, d], makeCall, options({ retries: 0 }));
    expect(result.target).toBe(d);
    expect(result.attempts.map((x) => `${x.upstream}:${x.status}:${x.retryable}`)).toEqual(['a:500:true', 'b:429:true', 'c:529:true', 'd:200:false']);
    for (const t of [a, b, c, d]) expect(JSON.parse(t.stub.requests[0]?.body ?? '').model).toBe(t.model);
  });

  it('falls back on connection errors', async () => {
    const a = await target('a', [ok]);
    await a.stub.close();
    stubs.splice(stubs.indexOf(a.stub), 1);
    const b = await target('b', [ok]);
    const result = await sendWithFallback([a, b], makeCall, options());
    expect(result.target).toBe(b);
    expect(result.attempts.map((x) => x.error?.code ?? x.status)).toEqual(['UPSTREAM_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE', 200]);
  });

  it('moves to the next target at once, without a retry, when an upstream answers 404 for the endpoint path', async () => {
    const pathNotFound: StubReply = { kind: 'json', status: 404, body: { detail: 'Not Found' } };
    const a = await target('a', [pathNotFound, pathNotFound]);
    const b = await target('b', [ok]);
    const result = await sendWithFallback([a, b], makeCall, options({ retries: 2, backoffMs: 5_000 }));
    expect(result.target).toBe(b);
    expect(a.stub.requests).toHaveLength(1);
    expect(result.attempts.map((x) => `${x.upstream}:${x.error?.code ?? x.status}:${x.retryable}`)).toEqual(['a:UPSTREAM_ENDPOINT_MISSING:true', 'b:200:false']);
  });

  it('answers the 502 when the last target has no such endpoint, and relays a 404 for the model as it is', async () => {
    const a = await target('a', [{ kind: 'json', status: 404, body: { detail: 'Not Found' } }]);
    const thrown = await sendWithFallback([a], makeCall, options()).catch((error: unknown) => error);
    expect(isGatewayError(thrown) && thrown.code).toBe('UPSTREAM_ENDPOINT_MISSING');
    expect(a.stub.requests).toHaveLength(1);
    const b = await target('b', [{ kind: 'json', status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'model: b-model' } } }]);
    const c = await target('c', [ok]);
    const result = await sendWithFallback([b, c], makeCall, options());
    expect(result.target).toBe(b);
    expect(result.response.status).toBe(404);
    expect(c.stub.requests).toHaveLength(0);
  });

  it('does not retry or fall back on other 4xx', async () => {
    const a = await target('a', [status(400)]);
    const b = await target('b', [ok]);
    const result = await sendWithFallback([a, b], makeCall, options());
    expect(result.response.status).toBe(400);
    expect(b.stub.requests).toHaveLength(0);
  });

  it('honours retry-after-ms and retry-after (seconds) before retrying the same target', async () => {
    const seen: number[] = [];
    const a = await target('a', [status(429, { 'retry-after-ms': '200' }), status(503, { 'retry-after': '0.15' }), ok]);
    const started = performance.now();
    const result = await sendWithFallback(
      [a],
      (t) => {
        seen.push(performance.now() - started);
        return makeCall(t);
      },
      options({ retries: 2 }),
    );
    expect(result.response.status).toBe(200);
    expect(result.attempts.map((x) => x.status)).toEqual([429, 503, 200]);
    expect(seen).toHaveLength(3);
    expect((seen[1] ?? 0) - (seen[0] ?? 0)).toBeGreaterThanOrEqual(190);
    expect((seen[2] ?? 0) - (seen[1] ?? 0)).toBeGreaterThanOrEqual(140);
  });

  it('skips to the next target at once when retry-after exceeds maxRetryAfterMs', async () => {
    const a = await target('a', [status(429, { 'retry-after': '60' }), ok]);
    const b = await target('b', [ok]);
    const started = performance.now();
    const result = await sendWithFallback([a, b], makeCall, options({ maxRetryAfterMs: 1000 }));
    expect(result.target).toBe(b);
    expect(a.stub.requests).toHaveLength(1);
    // Far below the 60 s the upstream asked for (generous for a loaded machine).
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('does not start a retry whose wait would end past deadlineAt: the last answer comes back readable, at once', async () => {
    const a = await target('a', [status(429, { 'retry-after': '2' }), ok]);
    const started = performance.now();
    const result = await sendWithFallback([a], makeCall, options({ deadlineAt: performance.now() + 1000 }));
    expect(result.response.status).toBe(429);
    expect(a.stub.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(500);
    expect(JSON.parse(new TextDecoder().decode((await readBody(result.response.body)).bytes))).toMatchObject({ type: 'error' });
  });

  it('still waits and retries when the wait ends before deadlineAt', async () => {
    const a = await target('a', [status(503), ok]);
    const result = await sendWithFallback([a], makeCall, options({ deadlineAt: performance.now() + 5000 }));
    expect(result.response.status).toBe(200);
    expect(a.stub.requests).toHaveLength(2);
  });

  it('throws the last error when a retry would pass deadlineAt', async () => {
    const a = await target('a', [{ kind: 'reset' }, ok]);
    await expect(sendWithFallback([a], makeCall, options({ backoffMs: 2000, deadlineAt: performance.now() + 1000 }))).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(a.stub.requests).toHaveLength(1);
  });

  it('moves to the next target without retrying when the upstream says x-should-retry: false', async () => {
    const a = await target('a', [status(503, { 'x-should-retry': 'false' }), ok]);
    const b = await target('b', [ok]);
    const result = await sendWithFallback([a, b], makeCall, options({ retries: 3 }));
    expect(result.target).toBe(b);
    expect(a.stub.requests).toHaveLength(1);
  });

  it('returns the last error response when every attempt failed, with its body readable', async () => {
    const a = await target('a', [status(503)]);
    const b = await target('b', [status(529)]);
    const result = await sendWithFallback([a, b], makeCall, options());
    expect(result.response.status).toBe(529);
    expect(result.target).toBe(b);
    expect(result.attempts).toHaveLength(4);
    const body = JSON.parse(new TextDecoder().decode((await readBody(result.response.body)).bytes));
    expect(body.error.message).toBe('status 529');
  });

  it('throws the last GatewayError when no upstream answered', async () => {
    const a = await target('a', [{ kind: 'reset' }]);
    await expect(sendWithFallback([a], makeCall, options({ retries: 2 }))).rejects.toSatisfy(
      (error: unknown) => isGatewayError(error) && error.code === 'UPSTREAM_UNAVAILABLE' && error.status === 502,
    );
    expect(a.stub.requests).toHaveLength(3);
  });

  it('releases the sockets of failed attempts, so retries reuse the connection', async () => {
    const a = await target('a', [status(500), status(500), ok]);
    await sendWithFallback([a], makeCall, options({ retries: 2, backoffMs: 30 }));
    expect(a.stub.requests).toHaveLength(3);
    expect(a.stub.connections).toBe(1);
  });

  it('stops waiting when the signal aborts during a backoff', async () => {
    const a = await target('a', [status(503, { 'retry-after': '5' }), ok]);
    const controller = new AbortController();
    const sending = sendWithFallback([a], makeCall, options({ signal: controller.signal }));
    setTimeout(() => controller.abort(new GatewayError('UPSTREAM_TIMEOUT', 'Deadline reached.')), 50);
    const started = performance.now();
    await expect(sending).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT', message: 'Deadline reached.' });
    // Well before the 5 s retry-after ran out.
    expect(performance.now() - started).toBeLessThan(4000);
    expect(a.stub.requests).toHaveLength(1);
  });

  it('does not retry a non-network failure', async () => {
    let calls = 0;
    const broken: Upstream = {
      name: 'broken',
      format: 'chat',
      send: async () => {
        calls++;
        throw new TypeError('bug');
      },
    };
    await expect(sendWithFallback([{ upstream: broken, model: 'm' }], makeCall, options({ retries: 3 }))).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(calls).toBe(1);
  });
});

describe('retryAfterMs', () => {
  it('prefers retry-after-ms, then seconds, then an HTTP date', () => {
    expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250);
    expect(retryAfterMs({ 'retry-after': '2' })).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs({ 'retry-after-ms': '-5' })).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });
});
