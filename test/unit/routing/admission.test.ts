/**
 * The admission counter and its queue: places taken and given back exactly
 * once, refusals in each caller's format, each principal's share, a bounded
 * queue that hands a freed place to the principal holding the fewest (first
 * come, first served among equals), holds at most a principal's share of its
 * calls, and forgets clients who leave, and the shutdown's stop.
 */
import { describe, expect, it, vi } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { Admission } from '../../../src/routing/admission.js';
import type { CallSlot } from '../../../src/routing/call-slot.js';

const noAbort = () => new AbortController().signal;

function refusal(run: () => unknown): { status: number; retryAfter: string | undefined; message: string; chatCode: string | null | undefined; messagesType: string | undefined } {
  try {
    run();
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { status: error.status, retryAfter: error.headers['retry-after'], message: error.message, chatCode: error.chatCode, messagesType: error.messagesType };
  }
  throw new Error('expected a refusal');
}

describe('Admission', () => {
  it('refuses past maxInFlight at once: 503 overloaded for chat, 529 overloaded_error for messages, with retry-after', () => {
    const admission = new Admission({ maxInFlight: 2 });
    admission.enter('chat', noAbort(), 'p1');
    admission.enter('messages', noAbort(), 'p2');
    expect(admission.inFlight).toBe(2);
    const chat = refusal(() => admission.enter('chat', noAbort(), 'p3'));
    expect(chat).toMatchObject({ status: 503, chatCode: 'overloaded', retryAfter: '1' });
    expect(chat.message).toContain('admission.maxInFlight');
    expect(refusal(() => admission.enter('messages', noAbort(), 'p4'))).toMatchObject({ status: 529, messagesType: 'overloaded_error', retryAfter: '1' });
  });

  it('gives a place back once the handler settled and every stream it holds ended, exactly once', () => {
    const admission = new Admission({ maxInFlight: 1 });
    const slot = admission.enter('chat', noAbort(), 'p5') as CallSlot;
    const stream = { interrupt: vi.fn(), abandon: vi.fn() };
    const release = slot.hold(stream);
    slot.settle();
    slot.settle();
    expect(admission.inFlight).toBe(1);
    expect(() => admission.enter('chat', noAbort(), 'p6')).toThrow();
    release();
    release();
    expect(admission.inFlight).toBe(0);
    // The place freed once: one more call fits, not two.
    admission.enter('chat', noAbort(), 'p7');
    expect(() => admission.enter('chat', noAbort(), 'p8')).toThrow();
  });

  it('counts calls without a limit when no option is set', () => {
    const admission = new Admission(undefined);
    for (let i = 0; i < 1000; i++) admission.enter('chat', noAbort(), 'p9');
    expect(admission.inFlight).toBe(1000);
  });

  it('queues first come, first served, and admits as places free', async () => {
    const admission = new Admission({ maxInFlight: 1, queueMs: 10_000, maxQueued: 2 });
    const first = admission.enter('chat', noAbort(), 'p10') as CallSlot;
    const order: string[] = [];
    const a = Promise.resolve(admission.enter('chat', noAbort(), 'p11')).then((slot) => (order.push('a'), slot));
    const b = Promise.resolve(admission.enter('messages', noAbort(), 'p12')).then((slot) => (order.push('b'), slot));
    expect(admission.queued).toBe(2);
    first.settle();
    (await a).settle();
    (await b).settle();
    expect(order).toEqual(['a', 'b']);
    expect(admission.inFlight).toBe(0);
    expect(admission.queued).toBe(0);
  });

  it('refuses a queued call when no place frees within queueMs, and refuses at once past maxQueued', async () => {
    vi.useFakeTimers();
    try {
      const admission = new Admission({ maxInFlight: 1, queueMs: 2500, maxQueued: 1 });
      admission.enter('chat', noAbort(), 'p13');
      const waiting = admission.enter('messages', noAbort(), 'p14') as Promise<CallSlot>;
      const outcome = waiting.then(() => 'admitted', (error: unknown) => error);
      // The queue is full: the next one is refused without waiting.
      expect(refusal(() => admission.enter('chat', noAbort(), 'p15'))).toMatchObject({ status: 503, retryAfter: '3' });
      await vi.advanceTimersByTimeAsync(2499);
      expect(admission.queued).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      const error = await outcome;
      expect(isGatewayError(error) && error.status).toBe(529);
      expect(isGatewayError(error) && error.message).toContain('2500 ms');
      expect(admission.queued).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('removes a queued client that leaves: its place in line goes to the next', async () => {
    const admission = new Admission({ maxInFlight: 1, queueMs: 10_000, maxQueued: 1 });
    const first = admission.enter('chat', noAbort(), 'p16') as CallSlot;
    const leaving = new AbortController();
    const gone = Promise.resolve(admission.enter('chat', leaving.signal, 'p17')).catch((error: unknown) => error);
    leaving.abort();
    expect(isGatewayError(await gone)).toBe(true);
    expect(admission.queued).toBe(0);
    // Its place in the (bounded) queue is free again, and the next waiter gets the freed slot.
    const next = admission.enter('chat', noAbort(), 'p18') as Promise<CallSlot>;
    first.settle();
    await expect(next).resolves.toBeDefined();
    expect(admission.inFlight).toBe(1);
  });

  it('stop() refuses new and queued calls as shutting down; idleWithin waits for the calls in progress', async () => {
    const admission = new Admission({ maxInFlight: 1, queueMs: 10_000 });
    const running = admission.enter('chat', noAbort(), 'p19') as CallSlot;
    const queued = Promise.resolve(admission.enter('messages', noAbort(), 'p20')).catch((error: unknown) => error);
    admission.stop();
    const error = await queued;
    expect(isGatewayError(error) && [error.status, error.message]).toEqual([529, expect.stringContaining('shutting down')]);
    expect(refusal(() => admission.enter('chat', noAbort(), 'p21'))).toMatchObject({ status: 503, chatCode: 'overloaded' });
    expect(await admission.idleWithin(20)).toBe(false);
    const idle = admission.idleWithin(10_000);
    running.settle();
    expect(await idle).toBe(true);
  });

  it('interruptAll and abandonAll reach every open stream', () => {
    const admission = new Admission(undefined);
    const slot = admission.enter('chat', noAbort(), 'p22') as CallSlot;
    const stream = { interrupt: vi.fn(), abandon: vi.fn() };
    slot.hold(stream);
    const error = new Error('x') as never;
    admission.interruptAll(error);
    admission.abandonAll();
    expect(stream.interrupt).toHaveBeenCalledWith(error);
    expect(stream.abandon).toHaveBeenCalledOnce();
  });
});

describe('Admission: each principal’s share', () => {
  it('defaults the share to half the places, rounded up: a principal at it is refused while another is still admitted', () => {
    const admission = new Admission({ maxInFlight: 5 });
    // ceil(5 / 2) = 3 places for one principal.
    for (let i = 0; i < 3; i++) admission.enter('chat', noAbort(), 'a');
    const refused = refusal(() => admission.enter('chat', noAbort(), 'a'));
    expect(refused).toMatchObject({ status: 503, chatCode: 'overloaded', retryAfter: '1' });
    expect(refused.message).toContain('admission.maxPerPrincipal');
    expect(refused.message).toContain('share of 3');
    // Another principal takes the places left.
    admission.enter('chat', noAbort(), 'b');
    admission.enter('messages', noAbort(), 'b');
    expect(admission.inFlight).toBe(5);
    // Now the instance is full: the refusal names the instance's limit.
    expect(refusal(() => admission.enter('chat', noAbort(), 'c')).message).toContain('admission.maxInFlight');
  });

  it('keeps a share of one place with a single place, and lets maxPerPrincipal give one principal every place', () => {
    const single = new Admission({ maxInFlight: 1 });
    single.enter('chat', noAbort(), 'a');
    expect(refusal(() => single.enter('chat', noAbort(), 'b')).message).toContain('admission.maxInFlight');

    const whole = new Admission({ maxInFlight: 4, maxPerPrincipal: 4 });
    for (let i = 0; i < 4; i++) whole.enter('chat', noAbort(), 'a');
    expect(whole.heldBy('a')).toBe(4);
  });

  it('gives a principal its share back as its places free', () => {
    const admission = new Admission({ maxInFlight: 4, maxPerPrincipal: 1 });
    const held = admission.enter('chat', noAbort(), 'a') as CallSlot;
    expect(() => admission.enter('chat', noAbort(), 'a')).toThrow();
    held.settle();
    expect(admission.heldBy('a')).toBe(0);
    admission.enter('chat', noAbort(), 'a');
    expect(admission.heldBy('a')).toBe(1);
  });

  it('counts the share refusals apart from the full ones', () => {
    const onRefused = vi.fn();
    const admission = new Admission({ maxInFlight: 2, maxPerPrincipal: 1 }, { onRefused });
    admission.enter('chat', noAbort(), 'a');
    expect(() => admission.enter('chat', noAbort(), 'a')).toThrow();
    admission.enter('chat', noAbort(), 'b');
    expect(() => admission.enter('chat', noAbort(), 'c')).toThrow();
    expect(onRefused.mock.calls).toEqual([['share_full'], ['full']]);
  });

  it('hands a freed place to the waiting principal holding the fewest places, not the oldest waiter', async () => {
    const admission = new Admission({ maxInFlight: 3, maxPerPrincipal: 3, queueMs: 10_000, maxQueued: 10 });
    const a1 = admission.enter('chat', noAbort(), 'a') as CallSlot;
    const a2 = admission.enter('chat', noAbort(), 'a') as CallSlot;
    const b1 = admission.enter('chat', noAbort(), 'b') as CallSlot;
    const order: string[] = [];
    const wait = (principal: string, name: string) =>
      Promise.resolve(admission.enter('chat', noAbort(), principal)).then((slot) => (order.push(name), slot));
    const aWaits = wait('a', 'a3'); // oldest, but a holds two places
    const bWaits = wait('b', 'b2'); // b holds one
    const cWaits = wait('c', 'c1'); // c holds none: first served
    expect(admission.queued).toBe(3);
    a1.settle();
    await cWaits;
    expect(order).toEqual(['c1']);
    // a holds 1, b 1, c 1: equals, so the oldest waiter (a) goes next.
    a2.settle();
    await aWaits;
    expect(order).toEqual(['c1', 'a3']);
    b1.settle();
    await bWaits;
    expect(order).toEqual(['c1', 'a3', 'b2']);
    expect(admission.queued).toBe(0);
  });

  it('never hands a freed place to a waiter whose principal is at its share; it waits for its own place to free', async () => {
    const admission = new Admission({ maxInFlight: 4, maxPerPrincipal: 2, queueMs: 10_000, maxQueued: 4 });
    const a1 = admission.enter('chat', noAbort(), 'a') as CallSlot;
    admission.enter('chat', noAbort(), 'a');
    const b1 = admission.enter('chat', noAbort(), 'b') as CallSlot;
    // Places are free, but a is at its share: it waits.
    let aAdmitted = false;
    const aWaits = Promise.resolve(admission.enter('chat', noAbort(), 'a')).then((slot) => ((aAdmitted = true), slot));
    expect(admission.queued).toBe(1);
    b1.settle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(aAdmitted).toBe(false);
    expect(admission.inFlight).toBe(2);
    a1.settle();
    await aWaits;
    expect(admission.heldBy('a')).toBe(2);
  });

  it('lets one principal have at most its share of calls waiting: one more is refused at once as share_full, and another principal still queues and is served', async () => {
    const onRefused = vi.fn();
    // Four places, a share of two, and a queue of four: without the bound, a alone could fill the queue.
    const admission = new Admission({ maxInFlight: 4, maxPerPrincipal: 2, queueMs: 10_000, maxQueued: 4 }, { onRefused });
    const held = [admission.enter('chat', noAbort(), 'a') as CallSlot, admission.enter('chat', noAbort(), 'a') as CallSlot];
    const aWaiting = [admission.enter('chat', noAbort(), 'a') as Promise<CallSlot>, admission.enter('chat', noAbort(), 'a') as Promise<CallSlot>];
    expect(admission.queued).toBe(2);
    const refused = refusal(() => admission.enter('messages', noAbort(), 'a'));
    expect(refused).toMatchObject({ status: 529, messagesType: 'overloaded_error', retryAfter: '10' });
    expect(refused.message).toContain('2 calls waiting');
    expect(refused.message).toContain('admission.maxPerPrincipal');
    expect(onRefused.mock.calls).toEqual([['share_full']]);
    expect(admission.queued).toBe(2);
    // b, at its share too, still finds room in the queue, and is served first when a place frees (it holds fewer).
    admission.enter('chat', noAbort(), 'b');
    const bHeld = admission.enter('chat', noAbort(), 'b') as CallSlot;
    const bWaiting = admission.enter('chat', noAbort(), 'b') as Promise<CallSlot>;
    expect(admission.queued).toBe(3);
    bHeld.settle();
    await expect(bWaiting).resolves.toBeDefined();
    expect(admission.heldBy('b')).toBe(2);
    // a's waiters are admitted as its own places free; each one admitted makes room for another of a's calls to wait.
    held[0]!.settle();
    const firstWaiter = await aWaiting[0];
    expect(admission.queued).toBe(1);
    const aAgain = admission.enter('chat', noAbort(), 'a');
    expect(aAgain).toBeInstanceOf(Promise);
    expect(admission.queued).toBe(2);
    held[1]!.settle();
    await aWaiting[1];
    // The last waiter gets a's next freed place (left waiting, it would be refused 10 s later, after the test).
    firstWaiter!.settle();
    await expect(aAgain).resolves.toBeDefined();
    expect(admission.queued).toBe(0);
  });

  it('counts a principal’s waiters down whichever way they leave the queue (timed out, client left, shut down)', async () => {
    vi.useFakeTimers();
    try {
      const admission = new Admission({ maxInFlight: 2, maxPerPrincipal: 1, queueMs: 1000, maxQueued: 10 });
      admission.enter('chat', noAbort(), 'a');
      const timedOut = Promise.resolve(admission.enter('chat', noAbort(), 'a')).catch((error: unknown) => error);
      expect(() => admission.enter('chat', noAbort(), 'a')).toThrow(/calls waiting/);
      await vi.advanceTimersByTimeAsync(1000);
      expect(isGatewayError(await timedOut)).toBe(true);
      const leaving = new AbortController();
      const left = Promise.resolve(admission.enter('chat', leaving.signal, 'a')).catch((error: unknown) => error);
      leaving.abort();
      expect(isGatewayError(await left)).toBe(true);
      const stopped = Promise.resolve(admission.enter('chat', noAbort(), 'a')).catch((error: unknown) => error);
      expect(admission.queued).toBe(1);
      admission.stop();
      expect(isGatewayError(await stopped)).toBe(true);
      expect(admission.queued).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says the share held a queued call back when it timed out waiting on it', async () => {
    vi.useFakeTimers();
    try {
      const admission = new Admission({ maxInFlight: 4, maxPerPrincipal: 1, queueMs: 1000 });
      admission.enter('chat', noAbort(), 'a');
      const waiting = Promise.resolve(admission.enter('messages', noAbort(), 'a')).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(1000);
      const error = await waiting;
      expect(isGatewayError(error) && [error.status, error.message]).toEqual([529, expect.stringContaining('admission.maxPerPrincipal')]);
    } finally {
      vi.useRealTimers();
    }
  });
});
