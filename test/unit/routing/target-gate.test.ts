import { afterEach, describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { renderError } from '../../../src/render-error.js';
import { HealthTracker } from '../../../src/routing/health.js';
import type { RouteTarget } from '../../../src/routing/routes.js';
import { createTargetGate, type SkippedTarget, type WhenAllCooling } from '../../../src/routing/target-gate.js';
import { messagesUpstream } from '../../../src/upstreams/messages-upstream.js';
import { sendWithFallback } from '../../../src/routing/send-with-fallback.js';
import type { Upstream, UpstreamCall } from '../../../src/upstreams/upstream.js';
import { type StubReply, type StubUpstream, startStubUpstream } from '../../helpers/stub-upstream.js';

const stubs: StubUpstream[] = [];
const upstreams: Upstream[] = [];

afterEach(async () => {
  for (const upstream of upstreams.splice(0)) await upstream.close?.();
  for (const stub of stubs.splice(0)) await stub.close();
});

async function target(name: string, script: StubReply[] | ((index: number) => StubReply)): Promise<RouteTarget & { stub: StubUpstream }> {
  const stub = await startStubUpstream(typeof script === 'function' ? (_request, index) => script(index) : script);
  stubs.push(stub);
  const upstream = messagesUpstream({ baseURL: stub.url, name, apiKey: 'k' });
  upstreams.push(upstream);
  return { upstream, model: `${name}-model`, stub };
}

const makeCall = (t: RouteTarget): UpstreamCall => ({ operation: 'messages', body: { model: t.model }, headers: {}, signal: new AbortController().signal });
const ok: StubReply = { kind: 'json', body: { ok: true } };
const status = (code: number, headers: Record<string, string> = {}): StubReply => ({
  kind: 'json', status: code, headers, body: { type: 'error', error: { type: 'api_error', message: `status ${code}` } },
});

function setup(options: { whenAllCooling?: WhenAllCooling; format?: 'chat' | 'messages' } = {}) {
  let now = 5_000_000;
  const tracker = new HealthTracker({ failures: 3, baseMs: 5_000 }, () => now);
  const skipped: SkippedTarget[] = [];
  const send = (targets: RouteTarget[], retries = 0) =>
    sendWithFallback(targets, makeCall, {
      signal: new AbortController().signal,
      backoffMs: 5,
      retries,
      health: createTargetGate({ tracker, format: options.format ?? 'chat', onSkip: (s) => skipped.push(s), ...(options.whenAllCooling ? { whenAllCooling: options.whenAllCooling } : {}) }),
    });
  return { tracker, skipped, send, advance: (ms: number) => (now += ms) };
}

describe('sendWithFallback with per-target health', () => {
  it('after a target goes down, later calls go straight to the next one without an attempt on it', async () => {
    const a = await target('a', [status(503)]);
    const b = await target('b', [ok]);
    const { send, skipped } = setup();
    for (let i = 0; i < 3; i++) expect((await send([a, b])).target).toBe(b);
    expect(a.stub.requests).toHaveLength(3);
    for (let i = 0; i < 5; i++) {
      const result = await send([a, b]);
      expect(result.target).toBe(b);
      expect(result.attempts.map((x) => x.upstream)).toEqual(['b']);
    }
    expect(a.stub.requests).toHaveLength(3);
    expect(b.stub.requests).toHaveLength(8);
    expect(skipped).toHaveLength(5);
    expect(skipped[0]).toMatchObject({ upstream: 'a', model: 'a-model', cause: 'failures', remainingMs: 5_000 });
  });

  it('moves on without its retry once the failing target cools mid-call', async () => {
    const a = await target('a', [status(500)]);
    const b = await target('b', [ok]);
    const { send } = setup();
    // Retries 1: call one fails a twice; call two fails it once more (third failure) and moves to b without a retry.
    await send([a, b], 1);
    expect(a.stub.requests).toHaveLength(2);
    const result = await send([a, b], 1);
    expect(result.attempts.map((x) => `${x.upstream}:${x.status}`)).toEqual(['a:500', 'b:200']);
  });

  it('the half-open probe restores traffic: one call probes, concurrent ones skip, then all go back', async () => {
    let aHealthy = false;
    const a = await target('a', () => (aHealthy ? { ...ok, delayMs: 100 } : status(529)));
    const b = await target('b', [ok]);
    const { send, advance, tracker } = setup();
    for (let i = 0; i < 3; i++) await send([a, b]);
    advance(5_000);
    aHealthy = true;
    const before = a.stub.requests.length;
    const results = await Promise.all(Array.from({ length: 6 }, () => send([a, b])));
    expect(a.stub.requests.length - before).toBe(1);
    expect(results.filter((r) => r.target === a)).toHaveLength(1);
    expect(tracker.snapshot()).toEqual([{ upstream: 'a', model: 'a-model', state: 'healthy' }]);
    const after = await Promise.all(Array.from({ length: 4 }, () => send([a, b])));
    expect(after.every((r) => r.target === a)).toBe(true);
  });

  it('a failed probe re-opens with the doubled cooldown', async () => {
    const a = await target('a', [status(502)]);
    const b = await target('b', [ok]);
    const { send, advance, tracker } = setup();
    for (let i = 0; i < 3; i++) await send([a, b]);
    advance(5_000);
    await send([a, b]);
    expect(a.stub.requests).toHaveLength(4);
    const cooling = tracker.cooling(JSON.stringify(['a', 'a-model']));
    expect(cooling && cooling.until - tracker.now()).toBe(10_000);
  });

  it("whenAllCooling 'reject', every target cooling: refused at once with retry-after of the earliest, in the caller format", async () => {
    const a = await target('a', [status(503)]);
    const b = await target('b', [status(503)]);
    for (const format of ['chat', 'messages'] as const) {
      const { send, advance } = setup({ format, whenAllCooling: 'reject' });
      for (let i = 0; i < 3; i++) await send([a, b]);
      advance(1_200);
      const count = a.stub.requests.length + b.stub.requests.length;
      const error = await send([a, b]).then(() => undefined, (thrown: unknown) => thrown);
      expect(isGatewayError(error)).toBe(true);
      if (!isGatewayError(error)) return;
      expect(a.stub.requests.length + b.stub.requests.length).toBe(count);
      const rendered = renderError(error, format);
      expect(rendered.headers['retry-after']).toBe('4');
      if (format === 'chat') {
        expect(rendered.status).toBe(503);
        expect(rendered.body).toMatchObject({ error: { type: 'server_error', code: 'upstream_cooling' } });
      } else {
        expect(rendered.status).toBe(529);
        expect(rendered.body).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
      }
      expect(rendered.headers['x-should-retry']).toBeUndefined();
    }
  });

  it('every target cooling on rate limits: a 429 rate_limit_error with the shortest retry-after', async () => {
    const a = await target('a', [status(429, { 'retry-after': '30' })]);
    const b = await target('b', [status(429, { 'retry-after-ms': '12500' })]);
    const { send } = setup({ format: 'messages' });
    await send([a, b]);
    const error = await send([a, b]).then(() => undefined, (thrown: unknown) => thrown);
    if (!isGatewayError(error)) throw new Error('expected a refusal');
    const rendered = renderError(error, 'messages');
    expect(rendered.status).toBe(429);
    expect(rendered.headers['retry-after']).toBe('13');
    expect(rendered.body).toMatchObject({ error: { type: 'rate_limit_error' } });
    expect(a.stub.requests).toHaveLength(1);
    expect(b.stub.requests).toHaveLength(1);
  });

  it("whenAllCooling 'try' sends anyway, and a success closes the circuit", async () => {
    let healthy = false;
    const a = await target('a', () => (healthy ? ok : status(500)));
    const { send, tracker } = setup({ whenAllCooling: 'try' });
    for (let i = 0; i < 3; i++) await send([a]);
    expect(tracker.snapshot()[0]?.state).toBe('cooling');
    expect((await send([a])).response.status).toBe(500);
    expect(a.stub.requests).toHaveLength(4);
    healthy = true;
    expect((await send([a])).response.status).toBe(200);
    expect(tracker.snapshot()).toEqual([{ upstream: 'a', model: 'a-model', state: 'healthy' }]);
  });

  it("a 429's retry-after on the only target is still waited out and retried (as the probe)", async () => {
    const a = await target('a', [status(429, { 'retry-after-ms': '150' }), ok]);
    const tracker = new HealthTracker();
    const started = performance.now();
    const result = await sendWithFallback([a], makeCall, {
      signal: new AbortController().signal,
      health: createTargetGate({ tracker, format: 'chat' }),
    });
    expect(result.response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(tracker.snapshot()).toEqual([{ upstream: 'a', model: 'a-model', state: 'healthy' }]);
  });

  it('a 4xx other than 429 counts as a working target', async () => {
    const a = await target('a', [status(500), status(500), status(400), status(500), status(500), ok]);
    const { send, tracker } = setup();
    for (let i = 0; i < 5; i++) await send([a]);
    expect(tracker.snapshot()[0]?.state).toBe('healthy');
    expect(a.stub.requests).toHaveLength(5);
  });
});
