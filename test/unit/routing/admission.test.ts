/**
 * The admission counter and its queue: places taken and given back exactly
 * once, refusals in each caller's format, a bounded first-come-first-served
 * queue that forgets clients who leave, and the shutdown's stop.
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
    admission.enter('chat', noAbort());
    admission.enter('messages', noAbort());
    expect(admission.inFlight).toBe(2);
    const chat = refusal(() => admission.enter('chat', noAbort()));
    expect(chat).toMatchObject({ status: 503, chatCode: 'overloaded', retryAfter: '1' });
    expect(chat.message).toContain('admission.maxInFlight');
    expect(refusal(() => admission.enter('messages', noAbort()))).toMatchObject({ status: 529, messagesType: 'overloaded_error', retryAfter: '1' });
  });

  it('gives a place back once the handler settled and every stream it holds ended, exactly once', () => {
    const admission = new Admission({ maxInFlight: 1 });
    const slot = admission.enter('chat', noAbort()) as CallSlot;
    const stream = { interrupt: vi.fn(), abandon: vi.fn() };
    const release = slot.hold(stream);
    slot.settle();
    slot.settle();
    expect(admission.inFlight).toBe(1);
    expect(() => admission.enter('chat', noAbort())).toThrow();
    release();
    release();
    expect(admission.inFlight).toBe(0);
    // The place freed once: one more call fits, not two.
    admission.enter('chat', noAbort());
    expect(() => admission.enter('chat', noAbort())).toThrow();
  });

  it('counts calls without a limit when no option is set', () => {
    const admission = new Admission(undefined);
    for (let i = 0; i < 1000; i++) admission.enter('chat', noAbort());
    expect(admission.inFlight).toBe(1000);
  });

  it('queues first come, first served, and admits as places free', async () => {
    const admission = new Admission({ maxInFlight: 1, queueMs: 10_000, maxQueued: 2 });
    const first = admission.enter('chat', noAbort()) as CallSlot;
    const order: string[] = [];
    const a = Promise.resolve(admission.enter('chat', noAbort())).then((slot) => (order.push('a'), slot));
    const b = Promise.resolve(admission.enter('messages', noAbort())).then((slot) => (order.push('b'), slot));
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
      admission.enter('chat', noAbort());
      const waiting = admission.enter('messages', noAbort()) as Promise<CallSlot>;
      const outcome = waiting.then(() => 'admitted', (error: unknown) => error);
      // The queue is full: the next one is refused without waiting.
      expect(refusal(() => admission.enter('chat', noAbort()))).toMatchObject({ status: 503, retryAfter: '3' });
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
    const first = admission.enter('chat', noAbort()) as CallSlot;
    const leaving = new AbortController();
    const gone = Promise.resolve(admission.enter('chat', leaving.signal)).catch((error: unknown) => error);
    leaving.abort();
    expect(isGatewayError(await gone)).toBe(true);
    expect(admission.queued).toBe(0);
    // Its place in the (bounded) queue is free again, and the next waiter gets the freed slot.
    const next = admission.enter('chat', noAbort()) as Promise<CallSlot>;
    first.settle();
    await expect(next).resolves.toBeDefined();
    expect(admission.inFlight).toBe(1);
  });

  it('stop() refuses new and queued calls as shutting down; idleWithin waits for the calls in progress', async () => {
    const admission = new Admission({ maxInFlight: 1, queueMs: 10_000 });
    const running = admission.enter('chat', noAbort()) as CallSlot;
    const queued = Promise.resolve(admission.enter('messages', noAbort())).catch((error: unknown) => error);
    admission.stop();
    const error = await queued;
    expect(isGatewayError(error) && [error.status, error.message]).toEqual([529, expect.stringContaining('shutting down')]);
    expect(refusal(() => admission.enter('chat', noAbort()))).toMatchObject({ status: 503, chatCode: 'overloaded' });
    expect(await admission.idleWithin(20)).toBe(false);
    const idle = admission.idleWithin(10_000);
    running.settle();
    expect(await idle).toBe(true);
  });

  it('interruptAll and abandonAll reach every open stream', () => {
    const admission = new Admission(undefined);
    const slot = admission.enter('chat', noAbort()) as CallSlot;
    const stream = { interrupt: vi.fn(), abandon: vi.fn() };
    slot.hold(stream);
    const error = new Error('x') as never;
    admission.interruptAll(error);
    admission.abandonAll();
    expect(stream.interrupt).toHaveBeenCalledWith(error);
    expect(stream.abandon).toHaveBeenCalledOnce();
  });
});
