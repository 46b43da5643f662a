/**
 * What a call does when every target of its route is cooling: by default
 * it goes to them anyway (a target with nowhere else to go is tried);
 * `whenAllCooling: 'reject'` answers locally; an upstream's own
 * `retry-after` (429, or 503) is kept, and only for as long as it said.
 * On `keyPassthrough` routes each credential has its own health.
 */
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { renderError } from '../../../src/render-error.js';
import { credentialScope } from '../../../src/routing/credential-scope.js';
import { HealthTracker, targetKey } from '../../../src/routing/health.js';
import type { RouteTarget } from '../../../src/routing/route-types.js';
import { sendWithFallback } from '../../../src/routing/send-with-fallback.js';
import { createTargetGate, type TargetGateOptions } from '../../../src/routing/target-gate.js';
import type { Upstream, UpstreamCall, UpstreamResponse } from '../../../src/upstreams/upstream.js';

type Reply = { status: number; headers?: Record<string, string> };

/** An in-process upstream answering from `reply`, counting the calls that reach it. */
function fakeTarget(name: string, reply: (call: UpstreamCall) => Reply): RouteTarget & { calls: number } {
  const target = {
    calls: 0,
    model: `${name}-model`,
    upstream: {
      name,
      format: 'chat',
      send: async (call: UpstreamCall): Promise<UpstreamResponse> => {
        target.calls++;
        const { status, headers = {} } = reply(call);
        return { status, headers, body: (async function* () {})() };
      },
    } satisfies Upstream,
  };
  return target;
}

function setup(gateOptions: Partial<Omit<TargetGateOptions, 'tracker' | 'format'>> = {}) {
  let now = 1_000_000;
  const tracker = new HealthTracker({}, () => now);
  const send = (targets: RouteTarget[], options: { scope?: string; callerKey?: string } = {}) =>
    sendWithFallback(targets, (target) => ({ operation: 'chat.completions', stream: false, body: { model: target.model }, headers: {}, signal: new AbortController().signal, ...(options.callerKey ? { callerKey: options.callerKey } : {}) }), {
      signal: new AbortController().signal,
      retries: 0,
      health: createTargetGate({ tracker, format: 'chat', ...gateOptions, ...(options.scope ? { scope: options.scope } : {}) }),
    });
  const outcome = (targets: RouteTarget[], options?: { scope?: string; callerKey?: string }) =>
    send(targets, options).then(
      (result) => ({ status: result.response.status, refused: undefined }),
      (thrown: unknown) => ({ status: undefined, refused: isGatewayError(thrown) ? renderError(thrown, 'chat') : thrown }),
    );
  return { tracker, send, outcome, advance: (ms: number) => (now += ms) };
}

describe('panic mode (the default)', () => {
  it('the only target, cooling after failures, is still tried: every call reaches it, and a success closes the circuit', async () => {
    let down = true;
    const only = fakeTarget('only', () => ({ status: down ? 500 : 200 }));
    const { outcome, tracker } = setup();
    for (let i = 0; i < 9; i++) await outcome([only]);
    expect(tracker.state(targetKey('only', 'only-model'))).toBe('cooling');
    for (let i = 0; i < 5; i++) expect(await outcome([only])).toMatchObject({ status: 500 });
    expect(only.calls).toBe(14);
    down = false;
    expect(await outcome([only])).toMatchObject({ status: 200 });
    expect(tracker.state(targetKey('only', 'only-model'))).toBe('healthy');
  });

  it('with another target up, the cooling one is skipped (no panic)', async () => {
    const down = fakeTarget('down', () => ({ status: 500 }));
    const up = fakeTarget('up', () => ({ status: 200 }));
    const { outcome } = setup();
    for (let i = 0; i < 9; i++) await outcome([down, up]);
    expect(down.calls).toBe(9);
    for (let i = 0; i < 5; i++) expect(await outcome([down, up])).toMatchObject({ status: 200 });
    expect(down.calls).toBe(9);
  });

  it("'reject' answers locally instead: 503 upstream_cooling with retry-after, no call", async () => {
    const only = fakeTarget('only', () => ({ status: 500 }));
    const { outcome } = setup({ whenAllCooling: 'reject' });
    for (let i = 0; i < 9; i++) await outcome([only]);
    const result = await outcome([only]);
    expect(result.refused).toMatchObject({ status: 503, headers: { 'retry-after': '5' }, body: { error: { code: 'upstream_cooling' } } });
    expect(only.calls).toBe(9);
  });

  it("an upstream's 429 with retry-after is answered locally for exactly the hint, then the target is called again", async () => {
    const only = fakeTarget('only', () => ({ status: 429, headers: { 'retry-after': '20' } }));
    const { outcome, advance } = setup();
    expect(await outcome([only])).toMatchObject({ status: 429 });
    const local = await outcome([only]);
    expect(local.refused).toMatchObject({ status: 429, headers: { 'retry-after': '20' }, body: { error: { code: 'rate_limit_exceeded' } } });
    expect(only.calls).toBe(1);
    advance(19_999);
    expect((await outcome([only])).refused).toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
    expect(only.calls).toBe(1);
    advance(1);
    expect(await outcome([only])).toMatchObject({ status: 429 });
    expect(only.calls).toBe(2);
  });

  it("a 503 with retry-after is kept for the hint too (503 upstream_cooling, saying the upstream asked to wait)", async () => {
    const only = fakeTarget('only', () => ({ status: 503, headers: { 'retry-after': '3' } }));
    const { outcome } = setup();
    await outcome([only]);
    const local = await outcome([only]);
    expect(local.refused).toMatchObject({ status: 503, headers: { 'retry-after': '3' }, body: { error: { code: 'upstream_cooling' } } });
    expect(JSON.stringify((local.refused as { body: unknown }).body)).toMatch(/asked to wait/);
    expect(only.calls).toBe(1);
  });

  it('in panic, a target waiting on its retry-after is skipped and the one cooling after failures is tried', async () => {
    const limited = fakeTarget('limited', () => ({ status: 429, headers: { 'retry-after': '60' } }));
    const failing = fakeTarget('failing', () => ({ status: 502 }));
    const { outcome } = setup();
    for (let i = 0; i < 9; i++) await outcome([failing]);
    await outcome([limited]);
    expect(await outcome([limited, failing])).toMatchObject({ status: 502 });
    expect(limited.calls).toBe(1);
    expect(failing.calls).toBe(10);
  });
});

describe('per-credential health (keyPassthrough)', () => {
  it('a credential is a digest: stable, distinct per key, never the key', () => {
    const alice = credentialScope('sk-alice-secret');
    expect(credentialScope('sk-alice-secret')).toBe(alice);
    expect(credentialScope('sk-bob-secret')).not.toBe(alice);
    expect(alice).toMatch(/^[\w-]{22}$/);
    expect(alice).not.toContain('alice');
  });

  it("Alice's own 429 cools the target for Alice only; Bob's calls still reach it", async () => {
    const upstream = fakeTarget('vendor', (call) => (call.callerKey === 'sk-alice' ? { status: 429, headers: { 'retry-after': '60' } } : { status: 200 }));
    const { outcome, tracker } = setup();
    const alice = { scope: credentialScope('sk-alice'), callerKey: 'sk-alice' };
    const bob = { scope: credentialScope('sk-bob'), callerKey: 'sk-bob' };
    expect(await outcome([upstream], bob)).toMatchObject({ status: 200 });
    expect(await outcome([upstream], alice)).toMatchObject({ status: 429 });
    expect((await outcome([upstream], alice)).refused).toMatchObject({ status: 429, headers: { 'retry-after': '60' } });
    expect(upstream.calls).toBe(2);
    for (let i = 0; i < 3; i++) expect(await outcome([upstream], bob)).toMatchObject({ status: 200 });
    expect(upstream.calls).toBe(5);
    // The shared view of the target never cooled, and the gauge does not show Alice's view.
    expect(tracker.state(targetKey('vendor', 'vendor-model'))).toBe('healthy');
    expect(tracker.snapshot()).toEqual([]);
  });

  it("Alice's failures cool only Alice's view of the target", async () => {
    const upstream = fakeTarget('vendor', (call) => ({ status: call.callerKey === 'sk-alice' ? 401 : 200 }));
    const failing = fakeTarget('vendor2', (call) => ({ status: call.callerKey === 'sk-alice' ? 500 : 200 }));
    const { outcome, tracker } = setup();
    const alice = { scope: credentialScope('sk-alice'), callerKey: 'sk-alice' };
    // A 401 on Alice's own key says nothing against the target.
    for (let i = 0; i < 10; i++) await outcome([upstream], alice);
    expect(tracker.state(targetKey('vendor', 'vendor-model', alice.scope))).toBe('healthy');
    for (let i = 0; i < 9; i++) await outcome([failing], alice);
    expect(tracker.state(targetKey('vendor2', 'vendor2-model', alice.scope))).toBe('cooling');
    expect(tracker.state(targetKey('vendor2', 'vendor2-model', credentialScope('sk-bob')))).toBe('healthy');
  });
});
