import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeoutOf, startDeadline } from '../../../src/signals/request-deadline.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startDeadline', () => {
  it('aborts with a 504 UPSTREAM_TIMEOUT naming the option once the time passes', async () => {
    const deadline = startDeadline(new AbortController().signal, 30);
    expect(deadline.signal.aborted).toBe(false);
    await sleep(80);
    expect(deadline.signal.aborted).toBe(true);
    const reason: unknown = deadline.signal.reason;
    expect(isGatewayError(reason) && reason.status).toBe(504);
    expect(String((reason as Error).message)).toContain('30 ms request time-out (requestTimeoutMs)');
  });

  it('clear() stops the clock; the parent signal still propagates', async () => {
    const parent = new AbortController();
    const deadline = startDeadline(parent.signal, 30);
    deadline.clear();
    await sleep(80);
    expect(deadline.signal.aborted).toBe(false);
    parent.abort(new Error('client left'));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe('client left');
  });

  it('starts aborted under an aborted parent', () => {
    const parent = new AbortController();
    parent.abort();
    expect(startDeadline(parent.signal, 1000).signal.aborted).toBe(true);
  });

  it('its AbortSource (what the built-in upstreams and retries use) aborts with the same reasons, listeners once each', async () => {
    const timed = startDeadline(new AbortController().signal, 30);
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    timed.source.addEventListener('abort', () => calls.push('first'), { once: true });
    timed.source.addEventListener('abort', removed);
    timed.source.addEventListener('abort', () => calls.push('last'));
    timed.source.removeEventListener('abort', removed);
    expect(timed.source.aborted).toBe(false);
    await sleep(80);
    expect(calls).toEqual(['first', 'last']);
    expect(timed.source.aborted).toBe(true);
    const reason: unknown = timed.source.reason;
    expect(isGatewayError(reason) && reason.status).toBe(504);
    // The AbortSignal made after the fact carries the same reason.
    expect(timed.signal.aborted).toBe(true);
    expect(timed.signal.reason).toBe(reason);

    const parent = new AbortController();
    const underClient = startDeadline(parent.signal, 1000);
    const signal = underClient.signal;
    let fired = 0;
    underClient.source.addEventListener('abort', () => fired++);
    underClient.clear();
    parent.abort(new Error('client left'));
    parent.abort(new Error('twice'));
    expect(fired).toBe(1);
    expect((underClient.source.reason as Error).message).toBe('client left');
    expect((signal.reason as Error).message).toBe('client left');
  });

  it('0 disables it: the parent signal itself, no end', () => {
    const parent = new AbortController().signal;
    const deadline = startDeadline(parent, 0);
    expect(deadline.signal).toBe(parent);
    expect(deadline.source).toBe(parent);
    expect(deadline.at).toBe(Infinity);
  });

  it('abandon() (the client left mid-stream): aborts with an AbortError, stops the clock and stops listening to the parent', async () => {
    const parent = new AbortController();
    const deadline = startDeadline(parent.signal, 30);
    let fired = 0;
    deadline.source.addEventListener('abort', () => fired++);
    deadline.abandon();
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('AbortError');
    parent.abort(new Error('client left, heard later'));
    await sleep(80);
    // Neither the parent nor the clock aborts it again or changes its reason.
    expect(fired).toBe(1);
    expect((deadline.source.reason as DOMException).name).toBe('AbortError');
  });

  it('abandon() without a clock leaves the parent, the signal itself, to abort when the client goes', () => {
    const parent = new AbortController();
    const deadline = startDeadline(parent.signal, 0);
    deadline.abandon();
    expect(deadline.signal.aborted).toBe(false);
    parent.abort();
    expect(deadline.signal.aborted).toBe(true);
  });

  it('defaults to 300 s, one first-byte time-out', () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(300_000);
    expect(requestTimeoutOf({})).toBe(300_000);
    expect(requestTimeoutOf({ requestTimeoutMs: 5 })).toBe(5);
  });
});

describe('AbortTrigger (the light client abort of the node:http adapter)', () => {
  it('aborts once with an AbortError by default; its signal, made before or after, follows it', async () => {
    const { AbortTrigger, signalOf } = await import('../../../src/signals/abort-source.js');
    const before = new AbortTrigger();
    const early = before.signal;
    let calls = 0;
    before.addEventListener('abort', () => calls++);
    before.abort();
    before.abort(new Error('ignored'));
    expect(calls).toBe(1);
    expect(early.aborted).toBe(true);
    expect((before.reason as DOMException).name).toBe('AbortError');
    expect(signalOf(before)).toBe(early);
    const plain = new AbortController().signal;
    expect(signalOf(plain)).toBe(plain);
    // A deadline under it aborts with the client's reason.
    const parent = new AbortTrigger();
    const deadline = startDeadline(parent, 1000);
    parent.abort(new Error('client left'));
    expect((deadline.source.reason as Error).message).toBe('client left');
    expect(startDeadline(parent, 0).signal).toBe(parent.signal);
  });
});
