/**
 * Output guards on streams, at the edges, over real HTTP with the official
 * client: any cut of an answer into deltas gives the client what the
 * whole answer gives; a block mid-stream aborts the upstream (the stub
 * would otherwise never end); a cached stream replays through the guards.
 */
import { denyList, type Guard, memoryResponseCache, openAICompatible, piiRedactor } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../helpers/split-randomly.js';
import { startGuardUpstreams } from '../helpers/guard-upstreams.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';

const KEY = 'sk-guard-test-0000000000';
const ANSWER = 'Write to jane.doe@example.com, or ring (415) 555-0100; ops@mail.example.org also works. Thanks!';

/** `text` cut at random places, from a seeded generator. */
function cut(text: string, seed: number): string[] {
  const random = createRandom(seed);
  const parts: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = 1 + Math.floor(random() * 12);
    parts.push(text.slice(at, at + size));
    at += size;
  }
  return parts;
}

/** An output guard that never decides in time (it would block). */
const slowOutput = (onError: 'open' | 'closed'): Guard => ({
  name: `slow-${onError}`,
  timeoutMs: 30,
  onError,
  output: () => new Promise((resolve) => setTimeout(() => resolve({ action: 'block', reason: 'late' }), 1_000)),
});
const throwingOutput: Guard = {
  name: 'throwing',
  output: () => {
    throw new Error('moderation at https://internal.example refused');
  },
};

const script = { deltas: [ANSWER] };
let upstreams: Awaited<ReturnType<typeof startGuardUpstreams>>;
let hanging: StubUpstream;
let app: StartedApp;
let openai: OpenAI;

beforeAll(async () => {
  upstreams = await startGuardUpstreams(script);
  const chunk = (content: string) => JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
  // Sends the denied term, then more text, then goes silent without ending: only an abort closes it.
  hanging = await startStubUpstream([{ kind: 'sse', events: [{ data: chunk('The codename is Project Nightingale.') }, { data: chunk(' More to come, and then some more, and more again, until the holdback is passed by far. '.repeat(4)) }], then: 'hang' }]);
  app = await startApp('node', {
    auth: { keys: [KEY] },
    guards: [piiRedactor(), denyList({ terms: ['project nightingale'], input: false })],
    cache: { store: memoryResponseCache() },
    routes: [
      { match: 'via-chat', upstream: openAICompatible({ baseURL: `${upstreams.chat.url}/v1`, apiKey: 'sk-up', name: 'chat-up' }) },
      { match: 'slow-open', upstream: openAICompatible({ baseURL: `${upstreams.chat.url}/v1`, apiKey: 'sk-up', name: 'chat-up' }), cache: false, guards: [slowOutput('open')] },
      { match: 'slow-closed', upstream: openAICompatible({ baseURL: `${upstreams.chat.url}/v1`, apiKey: 'sk-up', name: 'chat-up' }), cache: false, guards: [slowOutput('closed')] },
      { match: 'throwing-closed', upstream: openAICompatible({ baseURL: `${upstreams.chat.url}/v1`, apiKey: 'sk-up', name: 'chat-up' }), cache: false, guards: [throwingOutput] },
      { match: 'hanging', upstream: openAICompatible({ baseURL: `${hanging.url}/v1`, apiKey: 'sk-up', name: 'hanging' }), cache: false },
    ],
  });
  openai = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
});
afterAll(async () => {
  await app.close();
  await upstreams.close();
  await hanging.close();
});

async function streamed(model: string, prompt: string): Promise<{ text: string; finish: string | null }> {
  const stream = await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: prompt }] });
  let text = '';
  let finish: string | null = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  return { text, finish };
}

describe('output guards on streams, at the edges', () => {
  it('any cut of the answer into deltas streams what the whole answer gets', async () => {
    script.deltas = [ANSWER];
    const whole = (await openai.chat.completions.create({ model: 'via-chat', messages: [{ role: 'user', content: 'whole' }] })).choices[0]?.message.content;
    expect(whole).toBe('Write to [EMAIL], or ring [PHONE]; [EMAIL] also works. Thanks!');
    for (let seed = 1; seed <= 12; seed++) {
      script.deltas = cut(ANSWER, seed);
      expect(await streamed('via-chat', `seed ${seed}`), `seed ${seed}`).toEqual({ text: whole, finish: 'stop' });
    }
  });

  it('an output guard past its time-out: open lets the text through, closed ends the stream with content_filter; a throwing one ends it too', async () => {
    script.deltas = cut('A plain answer without anything to redact, long enough to pass any holdback of the stream.', 7);
    expect(await streamed('slow-open', 'a')).toEqual({ text: script.deltas.join(''), finish: 'stop' });
    const closed = await streamed('slow-closed', 'b');
    expect(closed.finish).toBe('content_filter');
    expect(closed.text).toBe('');
    const thrown = await streamed('throwing-closed', 'c');
    expect(thrown.finish).toBe('content_filter');
    expect(thrown.text).toBe('');
  });

  it('a block mid-stream aborts the upstream', async () => {
    const { text, finish } = await streamed('hanging', 'go');
    expect(finish).toBe('content_filter');
    expect(text).not.toMatch(/nightingale|More to come/i);
    await hanging.closed();
    expect(hanging.requests.at(-1)?.completed).not.toBe(true);
  });

  it('a cached stream replays through the guards', async () => {
    script.deltas = cut(ANSWER, 99);
    const first = await streamed('via-chat', 'cache me');
    const calls = upstreams.chat.requests.length;
    const replayed = await streamed('via-chat', 'cache me');
    expect(upstreams.chat.requests.length).toBe(calls);
    expect(replayed).toEqual(first);
    expect(replayed.text).not.toContain('jane.doe');
  });
});
