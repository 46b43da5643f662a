import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeoutOf, startDeadline } from '../../../src/handlers/request-deadline.js';

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

  it('0 disables it: the parent signal itself, no end', () => {
    const parent = new AbortController().signal;
    const deadline = startDeadline(parent, 0);
    expect(deadline.signal).toBe(parent);
    expect(deadline.at).toBe(Infinity);
  });

  it('defaults to 300 s, one first-byte time-out', () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(300_000);
    expect(requestTimeoutOf({})).toBe(300_000);
    expect(requestTimeoutOf({ requestTimeoutMs: 5 })).toBe(5);
  });
});
