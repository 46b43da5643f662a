/**
 * Running guards on requests and whole answers: in order, each seeing what
 * the ones before let through; time-outs and errors under both policies;
 * nothing a guard throws escapes.
 */
import { describe, expect, it } from 'vitest';
import type { Guard, GuardContext } from '../../../src/guards/guard-types.js';
import { runInputGuards, runOutputGuards } from '../../../src/guards/run-guards.js';
import { type ChatCompletionRequest, chatCompletionRequestSchema } from '../../../src/schemas/chat-request.js';

const body: ChatCompletionRequest = chatCompletionRequestSchema.parse({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'my secret is tulip' }],
});
const run = (guards: Guard[]) => runInputGuards({ guards, api: 'chat', body, principal: 'team-a' });
const runOutput = (guards: Guard[], text = 'the answer') =>
  runOutputGuards({ guards, channel: 'text', text, interface: 'chat', model: 'gpt-4o', principal: undefined });

/** A guard whose decision arrives after `ms`, or never, unless its signal aborts first. */
function slowGuard(name: string, ms: number, onError: 'open' | 'closed', seen: { aborted?: boolean } = {}): Guard {
  const wait = (ctx: GuardContext) =>
    new Promise<{ action: 'allow' }>((resolve, reject) => {
      const timer = setTimeout(() => resolve({ action: 'allow' }), ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        seen.aborted = true;
        reject(ctx.signal.reason);
      });
    });
  return { name, timeoutMs: 30, onError, input: (_, ctx) => wait(ctx), output: (_, ctx) => wait(ctx) };
}

const replaceWord = (name: string, from: string, to: string): Guard => ({
  name,
  input(view) {
    const part = view.messages[0]!.parts[0]!;
    const start = part.text.indexOf(from);
    return start < 0 ? { action: 'allow' } : { action: 'replace', replacements: [{ part: part.id, start, end: start + from.length, text: to }] };
  },
});

describe('runInputGuards', () => {
  it('passes the body on unchanged (the same object) when every guard allows', async () => {
    const result = await run([{ name: 'a', input: () => ({ action: 'allow' }) }]);
    expect(result.stop).toBeUndefined();
    if (!result.stop) expect(result.value).toBe(body);
    expect(result.records.map((r) => [r.guard, r.stage, r.decision])).toEqual([['a', 'input', 'allow']]);
  });

  it('shows each guard the body as the guards before it left it', async () => {
    const seen: string[] = [];
    const result = await run([
      replaceWord('first', 'tulip', 'rose'),
      { name: 'look', input: (view) => (seen.push(view.messages[0]!.parts[0]!.text), { action: 'allow' }) },
      replaceWord('second', 'rose', '[flower]'),
    ]);
    expect(seen).toEqual(['my secret is rose']);
    if (result.stop) throw new Error('stopped');
    expect(result.value.messages[0]!.content).toBe('my secret is [flower]');
    expect(body.messages[0]!.content).toBe('my secret is tulip');
  });

  it('gives the view the model, interface and principal, and the context the same', async () => {
    let got: unknown;
    await run([{ name: 'a', input: (view, ctx) => ((got = [view.model, view.interface, view.principal, ctx.model, ctx.interface, ctx.principal]), { action: 'allow' }) }]);
    expect(got).toEqual(['gpt-4o', 'chat', 'team-a', 'gpt-4o', 'chat', 'team-a']);
  });

  it('stops at the first block, with its reason, and runs no later guard', async () => {
    let later = false;
    const result = await run([
      { name: 'deny', input: () => ({ action: 'block', reason: 'No flowers.' }) },
      { name: 'after', input: () => ((later = true), { action: 'allow' }) },
    ]);
    expect(result.stop).toEqual({ kind: 'block', guard: 'deny', reason: 'No flowers.' });
    expect(later).toBe(false);
  });

  it('skips guards without an input function', async () => {
    const result = await run([{ name: 'out-only', output: () => ({ action: 'allow' }) }]);
    expect(result.records).toEqual([]);
  });

  describe('a guard past its time-out', () => {
    it('stops the call under onError closed, and its signal is aborted', async () => {
      const seen: { aborted?: boolean } = {};
      const started = performance.now();
      const result = await run([slowGuard('slow', 5_000, 'closed', seen)]);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(result.stop).toMatchObject({ kind: 'failed', guard: 'slow' });
      expect(result.records[0]).toMatchObject({ guard: 'slow', decision: 'timeout' });
      expect(seen.aborted).toBe(true);
    });

    it('lets the call through unchanged under onError open', async () => {
      const result = await run([slowGuard('slow', 5_000, 'open'), replaceWord('next', 'tulip', 'rose')]);
      expect(result.stop).toBeUndefined();
      if (!result.stop) expect(result.value.messages[0]!.content).toBe('my secret is rose');
      expect(result.records.map((r) => r.decision)).toEqual(['timeout', 'replace']);
    });

    it('is not timed out when it decides in time', async () => {
      const result = await run([{ ...slowGuard('quick', 1, 'closed'), timeoutMs: 1_000 }]);
      expect(result.stop).toBeUndefined();
    });
  });

  describe('a guard that throws', () => {
    const throwing: Guard = {
      name: 'broken',
      input: () => {
        throw new Error('boom');
      },
    };
    const rejecting: Guard = { name: 'broken', input: async () => Promise.reject(new Error('boom')) };

    it.each([
      ['synchronously', throwing],
      ['asynchronously', rejecting],
    ])('%s: stops the call by default (closed), recording the error', async (_, guard) => {
      const result = await run([guard]);
      expect(result.stop).toMatchObject({ kind: 'failed', guard: 'broken' });
      expect(result.records[0]).toMatchObject({ decision: 'error' });
      expect((result.records[0]!.error as Error).message).toBe('boom');
    });

    it('is skipped under onError open', async () => {
      const result = await run([{ ...throwing, onError: 'open' }]);
      expect(result.stop).toBeUndefined();
    });
  });

  it('treats an invalid decision as a guard error, never writing part of it', async () => {
    const overlapping: Guard = {
      name: 'bad',
      input: (view) => {
        const part = view.messages[0]!.parts[0]!.id;
        return { action: 'replace', replacements: [{ part, start: 0, end: 4, text: 'a' }, { part, start: 2, end: 6, text: 'b' }] };
      },
    };
    const nothing = { name: 'none', input: () => undefined } as unknown as Guard;
    const noReason = { name: 'no-reason', input: () => ({ action: 'block' }) } as unknown as Guard;
    for (const guard of [overlapping, nothing, noReason]) {
      const closed = await run([guard]);
      expect(closed.stop).toMatchObject({ kind: 'failed', guard: guard.name });
      expect(closed.records).toEqual([expect.objectContaining({ decision: 'error' })]);
      const open = await run([{ ...guard, onError: 'open' }]);
      expect(open.stop).toBeUndefined();
      if (!open.stop) expect(open.value).toBe(body);
    }
  });
});

describe('runOutputGuards', () => {
  it('runs output guards in order on the whole text', async () => {
    const result = await runOutput([
      { name: 'upper', output: (view) => ({ action: 'replace', replacements: [{ start: 0, end: view.text.length, text: view.text.toUpperCase() }] }) },
      { name: 'check', output: (view) => (view.text === 'THE ANSWER' && view.final && view.releasedLength === 0 ? { action: 'allow' } : { action: 'block', reason: 'unexpected' }) },
    ]);
    expect(result).toMatchObject({ stop: undefined, value: 'THE ANSWER' });
  });

  it('only runs guards that read the channel', async () => {
    const reasoningOnly: Guard = { name: 'r', outputChannels: ['reasoning'], output: () => ({ action: 'block', reason: 'x' }) };
    expect((await runOutput([reasoningOnly])).stop).toBeUndefined();
    const onReasoning = await runOutputGuards({ guards: [reasoningOnly], channel: 'reasoning', text: 't', interface: 'chat', model: 'm', principal: undefined });
    expect(onReasoning.stop).toMatchObject({ kind: 'block' });
  });

  it('applies error policies to a slow output guard', async () => {
    expect((await runOutput([slowGuard('slow', 5_000, 'closed')])).stop).toMatchObject({ kind: 'failed' });
    expect(await runOutput([slowGuard('slow', 5_000, 'open')])).toMatchObject({ stop: undefined, value: 'the answer' });
  });

  it('aborts the guard signal when the caller goes away', async () => {
    const caller = new AbortController();
    const seen: { aborted?: boolean } = {};
    const guard = { ...slowGuard('slow', 5_000, 'closed', seen), timeoutMs: 10_000 };
    const pending = runOutputGuards({ guards: [guard], channel: 'text', text: 't', interface: 'chat', model: 'm', principal: undefined, signal: caller.signal });
    caller.abort(new Error('client went away'));
    const result = await pending;
    expect(seen.aborted).toBe(true);
    expect(result.records[0]).toMatchObject({ decision: 'error' });
  });
});
