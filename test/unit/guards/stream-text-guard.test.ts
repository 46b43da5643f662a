/**
 * Output guards on streams: whatever the chunking, a streamed answer comes
 * out exactly as the same answer does whole; a block lets nothing of the
 * blocked text out; the first text leaves once the holdback fills.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { denyList } from '../../../src/guards/builtin/deny-list.js';
import { piiRedactor } from '../../../src/guards/builtin/pii-redactor.js';
import type { Guard, GuardStop, Holdback } from '../../../src/guards/guard-types.js';
import { runOutputGuards } from '../../../src/guards/run-guards.js';
import { createStreamTextGuard } from '../../../src/guards/stream-text-guard.js';

const CALL = { channel: 'text', interface: 'chat', model: 'm', principal: undefined } as const;

/** Streams `deltas` through the guards: what came out, and the stop if any. */
async function streamThrough(guards: Guard[], deltas: string[]): Promise<{ out: string; stop: GuardStop | undefined }> {
  const stream = createStreamTextGuard({ guards, ...CALL })!;
  let out = '';
  for (const delta of deltas) {
    const step = await stream.push(delta);
    out += step.text;
    if (step.stop) return { out, stop: step.stop };
  }
  const last = await stream.end();
  return { out: out + last.text, stop: last.stop };
}

/** The whole answer through the same guards. */
async function wholeThrough(guards: Guard[], text: string) {
  return runOutputGuards({ guards, text, ...CALL });
}

/** `text` cut at `cuts` (code-unit offsets, any order). */
function chunk(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const deltas: string[] = [];
  let at = 0;
  for (const point of [...points, text.length]) {
    deltas.push(text.slice(at, point));
    at = point;
  }
  return deltas.filter((delta) => delta !== '');
}

const charByChar = (text: string) => [...text.split('')];

// Answers are tokens between separators; the tokens that must be caught are known by construction.
const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
const email = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9._+-]{0,15}$/), fc.stringMatching(/^[a-z]{1,10}(\.[a-z]{1,8})?$/), fc.constantFrom('com', 'io', 'org', 'museum'))
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const phone = fc.oneof(
  fc.tuple(digits(3), digits(3), digits(4)).map(([a, b, c]) => `${a}-${b}-${c}`),
  fc.tuple(digits(3), digits(3), digits(4)).map(([a, b, c]) => `(${a}) ${b}-${c}`),
  fc.tuple(digits(2), digits(3), digits(3), digits(4)).map(([cc, a, b, c]) => `+${cc} ${a} ${b} ${c}`),
  fc.tuple(digits(3), digits(3), digits(4)).map(([a, b, c]) => `${a}.${b}.${c}`),
);
const word = fc.constantFrom('the', 'call', 'me', 'at', 'or', 'write', 'today', 'Paris', 'nightingales', 'project', 'x1', 'übermorgen', '😀', 'co.uk', 'e.g.', 'xnightingale', '0123456789012');
const DENIED = ['nightingale', 'project x'];
const denied = fc.constantFrom('nightingale', 'Nightingale', 'NIGHTINGALE', 'project x', 'Project X');
const separator = fc.constantFrom(' ', ', ', '. ', '\n', ' - ', '! ', '? ');

type Token = { kind: 'word' | 'email' | 'phone' | 'denied'; text: string };
const token = fc.oneof(
  { weight: 6, arbitrary: word.map((text): Token => ({ kind: 'word', text })) },
  { weight: 2, arbitrary: email.map((text): Token => ({ kind: 'email', text })) },
  { weight: 2, arbitrary: phone.map((text): Token => ({ kind: 'phone', text })) },
  { weight: 1, arbitrary: denied.map((text): Token => ({ kind: 'denied', text })) },
);

/** An answer: its text, its tokens and where each starts. */
const answer = (kinds: Token['kind'][]) =>
  fc.array(fc.tuple(token.filter((t) => kinds.includes(t.kind)), separator), { minLength: 1, maxLength: 40 }).map((pairs) => {
    let text = '';
    const placed: (Token & { start: number })[] = [];
    for (const [t, sep] of pairs) {
      placed.push({ ...t, start: text.length });
      text += t.text + sep;
    }
    return { text, placed };
  });

const chunking = fc.oneof(fc.array(fc.nat(), { maxLength: 60 }), fc.constant('chars' as const));
const deltasOf = (text: string, cuts: number[] | 'chars') => (cuts === 'chars' ? charByChar(text) : chunk(text, cuts));

describe('streamed text equals the whole answer, whatever the chunking', () => {
  const holdbacks: [string, Holdback | undefined][] = [
    ['the redactor default (128 characters)', undefined],
    ['64 characters', { chars: 64 }],
    ['sentences', 'sentence'],
  ];
  it.each(holdbacks)('PII redactor, holdback %s', async (_, holdback) => {
    const guards = [piiRedactor(holdback ? { holdback } : {})];
    await fc.assert(
      fc.asyncProperty(answer(['word', 'email', 'phone']), chunking, async ({ text, placed }, cuts) => {
        const whole = await wholeThrough(guards, text);
        const streamed = await streamThrough(guards, deltasOf(text, cuts));
        expect(whole.stop).toBeUndefined();
        expect(streamed.stop).toBeUndefined();
        if (whole.stop) return;
        expect(streamed.out).toBe(whole.value);
        // And independently of the guard: no address or number it was given gets through.
        for (const t of placed) if (t.kind !== 'word') expect(streamed.out).not.toContain(t.text);
      }),
      { numRuns: 150 },
    );
  });

  it('a redactor and a deny-list chained', async () => {
    const guards = [piiRedactor(), denyList({ terms: DENIED })];
    await fc.assert(
      fc.asyncProperty(answer(['word', 'email', 'phone', 'denied']), chunking, async ({ text }, cuts) => {
        const whole = await wholeThrough(guards, text);
        const streamed = await streamThrough(guards, deltasOf(text, cuts));
        if (whole.stop) {
          expect(streamed.stop).toEqual(whole.stop);
        } else {
          expect(streamed.stop).toBeUndefined();
          expect(streamed.out).toBe(whole.value);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('a block mid-stream', () => {
  it('lets out only a prefix of the text before the first denied term, never the term', async () => {
    const guards = [denyList({ terms: DENIED })];
    await fc.assert(
      fc.asyncProperty(answer(['word', 'denied']), chunking, async ({ text, placed }, cuts) => {
        const first = placed.find((t) => t.kind === 'denied');
        const streamed = await streamThrough(guards, deltasOf(text, cuts));
        if (!first) {
          expect(streamed).toEqual({ out: text, stop: undefined });
          return;
        }
        expect(streamed.stop).toMatchObject({ kind: 'block', guard: 'deny-list' });
        // A prefix of the text before the term: nothing of the term, nothing after it.
        expect(text.slice(0, first.start).startsWith(streamed.out)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('lets nothing out after the block, and reports the stop on later calls', async () => {
    const stream = createStreamTextGuard({ guards: [denyList({ terms: ['stop'] })], ...CALL })!;
    const outs: string[] = [];
    for (const delta of ['hello there ', 'please stop ', 'and more text after it ', 'and more']) outs.push((await stream.push(delta)).text);
    const last = await stream.end();
    // The holdback is 'stop'.length + 1 = 5: the first delta lets out all but its last 5 characters; the
    // second brings the term, and what was held with it is dropped.
    expect(outs).toEqual(['hello t', '', '', '']);
    expect(last.text).toBe('');
    expect(last).toEqual({ text: '', stop: { kind: 'block', guard: 'deny-list', reason: expect.any(String) } });
    expect(stream.stop).toMatchObject({ kind: 'block' });
  });
});

describe('first-text latency', () => {
  it('with a 64-character holdback and 1-character deltas, text first leaves at delta 65, then one character a delta', async () => {
    const stream = createStreamTextGuard({ guards: [{ name: 'allow', holdback: { chars: 64 }, output: () => ({ action: 'allow' }) }], ...CALL })!;
    const text = 'abcdefghij '.repeat(20);
    const released: string[] = [];
    for (const char of text) released.push((await stream.push(char)).text);
    expect(released.findIndex((out) => out !== '') + 1).toBe(65);
    expect(released.slice(64).every((out) => out.length === 1)).toBe(true);
    expect(released.join('') + (await stream.end()).text).toBe(text);
  });

  it('a deny-list holds back only its longest term and one character', async () => {
    const stream = createStreamTextGuard({ guards: [denyList({ terms: ['abc', 'nightingale'] })], ...CALL })!;
    const released: string[] = [];
    for (const char of 'some ordinary words go by') released.push((await stream.push(char)).text);
    expect(released.findIndex((out) => out !== '') + 1).toBe('nightingale'.length + 2);
  });

  it('sentence holdback lets each sentence out once it ends', async () => {
    const stream = createStreamTextGuard({ guards: [{ name: 'allow', holdback: 'sentence', output: () => ({ action: 'allow' }) }], ...CALL })!;
    expect((await stream.push('First sentence')).text).toBe('');
    expect((await stream.push('. Second')).text).toBe('First sentence. ');
    expect((await stream.push(' one!\nThird')).text).toBe('Second one!\n');
    expect((await stream.end()).text).toBe('Third');
  });
});

describe('guard failures on a stream', () => {
  const slow = (onError: 'open' | 'closed'): Guard => ({
    name: 'slow',
    holdback: { chars: 4 },
    timeoutMs: 20,
    onError,
    output: (_, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
  });

  it('a slow guard under closed stops the stream, recording a time-out', async () => {
    const stream = createStreamTextGuard({ guards: [slow('closed')], ...CALL })!;
    const step = await stream.push('hello world');
    expect(step).toEqual({ text: '', stop: { kind: 'failed', guard: 'slow', error: expect.any(Error) } });
    expect(stream.records()).toEqual([expect.objectContaining({ guard: 'slow', stage: 'output', decision: 'timeout' })]);
  });

  it('a slow guard under open lets the text through unchanged', async () => {
    expect(await streamThrough([slow('open')], ['hello ', 'world'])).toEqual({ out: 'hello world', stop: undefined });
  });

  it('a guard that throws on its third window stops the stream after what it had let out', async () => {
    let calls = 0;
    const flaky: Guard = {
      name: 'flaky',
      holdback: { chars: 2 },
      output: () => {
        calls++;
        if (calls === 3) throw new Error('moderation service down');
        return { action: 'allow' };
      },
    };
    const result = await streamThrough([flaky], ['aaaa', 'bbbb', 'cccc', 'dddd']);
    // Holding back 2 characters, the first two windows let out 'aa' and 'aabb'; the third fails.
    expect(result.out).toBe('aaaabb');
    expect(result.stop).toMatchObject({ kind: 'failed', guard: 'flaky' });
  });

  it('an invalid span is a guard error, not corrupted text', async () => {
    const bad: Guard = { name: 'bad', holdback: { chars: 1 }, output: (view) => ({ action: 'replace', replacements: [{ start: 0, end: view.text.length + 5, text: 'x' }] }) };
    expect((await streamThrough([bad], ['hello'])).stop).toMatchObject({ kind: 'failed', guard: 'bad' });
    expect(await streamThrough([{ ...bad, onError: 'open' }], ['hel', 'lo'])).toEqual({ out: 'hello', stop: undefined });
  });
});

describe('records and cost', () => {
  it('keep one record per guard for the whole stream', async () => {
    const stream = createStreamTextGuard({ guards: [piiRedactor({ holdback: { chars: 8 } }), denyList({ terms: ['zebra'] })], ...CALL })!;
    for (const delta of ['mail me at a@b.io ', 'or not, it is fine ', 'really']) await stream.push(delta);
    await stream.end();
    expect(stream.records().map((r) => [r.guard, r.decision])).toEqual([
      ['pii-redactor', 'replace'],
      ['deny-list', 'allow'],
    ]);
  });

  it('is not created when no guard reads the channel', () => {
    expect(createStreamTextGuard({ guards: [], ...CALL })).toBeUndefined();
    expect(createStreamTextGuard({ guards: [{ name: 'in', input: () => ({ action: 'allow' }) }], ...CALL })).toBeUndefined();
  });
});
