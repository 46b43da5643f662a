/**
 * The response cache over real HTTP (node:http and Express), through the
 * official clients: a repeated request is answered from the cache with no
 * upstream call, in the caller's mode whatever mode filled it, with
 * `x-modelgate-cache` and `age`; scopes keep callers apart; routes and
 * models can be left out; failures, cut answers and stateful calls are
 * never stored; request controls are honoured; and identical concurrent
 * misses make one upstream call.
 */
import { type GatewayOptions, memoryResponseCache, memoryResponseStore, type ResponseCacheStore } from 'modelgate';
import { createSimulator, FAULT_HEADER } from 'modelgate/testing';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { countCalls, type CountingUpstream } from '../helpers/counting-upstream.js';
import { mapCacheStore } from '../helpers/map-cache-store.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const ALICE = 'sk-cache-alice-0123456789';
const BOB = 'sk-cache-bob-0123456789ab';
const CHAT_MODEL = 'gpt-4o';
const MESSAGES_MODEL = 'vendora-sonnet-4-6';
const ask = (text: string) => [{ role: 'user' as const, content: text }];

interface Setup {
  app: StartedApp;
  store: ResponseCacheStore;
  /** Moves the memory cache's clock on (entries age without the test sleeping). */
  advance(ms: number): void;
  /** Bytes the cache holds. */
  held(): Promise<number>;
  chat: CountingUpstream;
  messages: CountingUpstream;
}

let started: StartedApp[] = [];
afterEach(async () => {
  await Promise.all(started.map((app) => app.close()));
  started = [];
});

interface SetupOptions {
  /** The `cache` option beside its store, or false for none. */
  cache?: Partial<NonNullable<GatewayOptions['cache']>> | false;
  /** The store (default: `memoryResponseCache` on a clock the test moves). */
  store?: ResponseCacheStore;
  /** Output tokens per second of the simulated upstreams (default: at once). */
  tokensPerSecond?: number;
  /** Keep Responses in a memory store. */
  responseStore?: boolean;
}

async function setup(mount: Mount, options: SetupOptions = {}): Promise<Setup> {
  let offsetMs = 0;
  const { cache = {}, store = memoryResponseCache({ now: () => Date.now() + offsetMs }), tokensPerSecond, responseStore } = options;
  const sim = createSimulator(tokensPerSecond === undefined ? {} : { pace: { tokensPerSecond } });
  const chat = countCalls(sim.upstreams.chat);
  const messages = countCalls(sim.upstreams.messages);
  const app = await startApp(mount, {
    auth: { keys: [{ key: ALICE, id: 'alice' }, { key: BOB, id: 'bob' }] },
    routes: [
      { match: 'uncached-gpt', upstream: chat, model: CHAT_MODEL, cache: false, retries: 0 },
      { match: 'other-gpt', upstream: chat, model: CHAT_MODEL, retries: 0 },
      { match: CHAT_MODEL, upstream: chat, retries: 0 },
      { match: 'vendora-*', upstream: messages, retries: 0 },
    ],
    ...(cache === false ? {} : { cache: { store, ...cache } }),
    ...(responseStore ? { responseStore: memoryResponseStore() } : {}),
  });
  started.push(app);
  return {
    app, store, chat, messages,
    advance: (ms) => {
      offsetMs += ms;
    },
    held: async () => (await store.bytesHeld?.()) ?? 0,
  };
}

const openai = (app: StartedApp, key = ALICE) => new OpenAI({ baseURL: `${app.url}/v1`, apiKey: key, maxRetries: 0 });
const anthropic = (app: StartedApp, key = ALICE) => new Anthropic({ baseURL: app.url, apiKey: key, maxRetries: 0 });

async function collectChatStream(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>): Promise<{ text: string; finish: string | null | undefined }> {
  let text = '';
  let finish: string | null | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  return { text, finish };
}

describe.each(['node', 'express5'] as const)('response cache on %s', (mount) => {
  it('chat: a repeat is a hit with no upstream call, in either mode whatever mode filled it', async () => {
    const { app, chat } = await setup(mount);
    const client = openai(app);
    const first = await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Name three rivers.') }).withResponse();
    expect(first.response.headers.get('x-modelgate-cache')).toBe('miss');
    expect(first.response.headers.get('age')).toBeNull();
    expect(chat.calls).toBe(1);

    const again = await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Name three rivers.') }).withResponse();
    expect(again.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(Number(again.response.headers.get('age'))).toBeGreaterThanOrEqual(0);
    expect(chat.calls).toBe(1);
    expect(again.data.choices[0]?.message.content).toBe(first.data.choices[0]?.message.content);
    expect(again.data.choices[0]?.finish_reason).toBe(first.data.choices[0]?.finish_reason);
    expect(again.data.usage).toEqual(first.data.usage);

    // The non-streamed entry answers a streamed request.
    const streamed = await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Name three rivers.'), stream: true }).withResponse();
    expect(streamed.response.headers.get('x-modelgate-cache')).toBe('hit');
    const replayed = await collectChatStream(streamed.data);
    expect(replayed).toEqual({ text: first.data.choices[0]?.message.content, finish: first.data.choices[0]?.finish_reason });
    expect(chat.calls).toBe(1);
  });

  it('chat: a streamed answer fills the entry a non-streamed request is answered from', async () => {
    const { app, chat } = await setup(mount);
    const client = openai(app);
    const streamed = await collectChatStream(await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Count to five.'), stream: true }));
    expect(chat.calls).toBe(1);
    const plain = await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Count to five.') }).withResponse();
    expect(plain.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(chat.calls).toBe(1);
    expect({ text: plain.data.choices[0]?.message.content, finish: plain.data.choices[0]?.finish_reason }).toEqual(streamed);
  });
});

/** A Response's text, read from its output items (the client adds `output_text` to non-streamed responses only). */
function textOf(response: OpenAI.Responses.Response | undefined): string {
  let text = '';
  for (const item of response?.output ?? []) {
    if (item.type !== 'message') continue;
    for (const part of item.content) if (part.type === 'output_text') text += part.text;
  }
  return text;
}

describe('response cache: messages and Responses through their clients', () => {
  it('messages (vendor client): miss then hit, streamed and not, same content and stop reason', async () => {
    const { app, messages } = await setup('express5');
    const client = anthropic(app);
    const request = { model: MESSAGES_MODEL, max_tokens: 200, messages: ask('Describe a lighthouse.') };
    const first = await client.messages.create(request).withResponse();
    expect(first.response.headers.get('x-modelgate-cache')).toBe('miss');
    const hit = await client.messages.create(request).withResponse();
    expect(hit.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(hit.data.content).toEqual(first.data.content);
    expect(hit.data.stop_reason).toBe(first.data.stop_reason);
    expect(hit.data.usage).toEqual(first.data.usage);
    const streamed = await client.messages.stream(request).finalMessage();
    expect(streamed.content).toEqual(first.data.content);
    expect(streamed.stop_reason).toBe(first.data.stop_reason);
    expect(messages.calls).toBe(1);
  });

  it('messages: a streamed fill answers a non-streamed request', async () => {
    const { app, messages } = await setup('node');
    const client = anthropic(app);
    const request = { model: MESSAGES_MODEL, max_tokens: 200, messages: ask('Describe a harbour.') };
    const streamed = await client.messages.stream(request).finalMessage();
    const plain = await client.messages.create(request);
    expect(plain.content).toEqual(streamed.content);
    expect(plain.stop_reason).toBe(streamed.stop_reason);
    expect(messages.calls).toBe(1);
  });

  it('Responses (official client): miss then hit, streamed and not', async () => {
    const { app, chat } = await setup('node');
    const client = openai(app);
    const first = await client.responses.create({ model: CHAT_MODEL, input: 'Write a haiku about snow.' }).withResponse();
    expect(first.response.headers.get('x-modelgate-cache')).toBe('miss');
    const hit = await client.responses.create({ model: CHAT_MODEL, input: 'Write a haiku about snow.' }).withResponse();
    expect(hit.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(textOf(hit.data)).toBe(textOf(first.data));
    expect(textOf(first.data)).not.toBe('');
    expect(hit.data.status).toBe(first.data.status);
    // Each answer is a response of its own.
    expect(hit.data.id).not.toBe(first.data.id);
    const stream = await client.responses.create({ model: CHAT_MODEL, input: 'Write a haiku about snow.', stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    expect(textOf(completed)).toBe(textOf(first.data));
    expect(completed?.status).toBe('completed');
    expect(chat.calls).toBe(1);
  });

  it('Responses: a streamed fill answers a non-streamed request', async () => {
    const { app, messages } = await setup('express5');
    const client = openai(app);
    const stream = await client.responses.create({ model: MESSAGES_MODEL, input: 'Explain tides briefly.', stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    const plain = await client.responses.create({ model: MESSAGES_MODEL, input: 'Explain tides briefly.' }).withResponse();
    expect(plain.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(textOf(plain.data)).toBe(textOf(completed));
    expect(textOf(completed)).not.toBe('');
    expect(messages.calls).toBe(1);
  });
});

describe('response cache: scope and coverage', () => {
  it('principal scope: Bob misses what Alice filled', async () => {
    const { app, chat } = await setup('node');
    await openai(app, ALICE).chat.completions.create({ model: CHAT_MODEL, messages: ask('A secret plan.') });
    const bob = await openai(app, BOB).chat.completions.create({ model: CHAT_MODEL, messages: ask('A secret plan.') }).withResponse();
    expect(bob.response.headers.get('x-modelgate-cache')).toBe('miss');
    expect(chat.calls).toBe(2);
    const alice = await openai(app, ALICE).chat.completions.create({ model: CHAT_MODEL, messages: ask('A secret plan.') }).withResponse();
    expect(alice.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(chat.calls).toBe(2);
  });

  it("shared scope: Bob is answered from Alice's entry", async () => {
    const { app, chat } = await setup('node', { cache: { scope: 'shared' } });
    await openai(app, ALICE).chat.completions.create({ model: CHAT_MODEL, messages: ask('Public facts.') });
    const bob = await openai(app, BOB).chat.completions.create({ model: CHAT_MODEL, messages: ask('Public facts.') }).withResponse();
    expect(bob.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(chat.calls).toBe(1);
  });

  it('a route with cache: false and a model outside cache.models bypass; no cache option, no header', async () => {
    const { app, chat } = await setup('express5', { cache: { models: [CHAT_MODEL, 'vendora-*'] } });
    for (const model of ['uncached-gpt', 'other-gpt']) {
      for (let round = 0; round < 2; round++) {
        const answer = await openai(app).chat.completions.create({ model, messages: ask('Hello there.') }).withResponse();
        expect(answer.response.headers.get('x-modelgate-cache')).toBe('bypass');
      }
    }
    expect(chat.calls).toBe(4);
    const plain = await setup('node', { cache: false });
    const answer = await openai(plain.app).chat.completions.create({ model: CHAT_MODEL, messages: ask('Hello there.') }).withResponse();
    expect(answer.response.headers.get('x-modelgate-cache')).toBeNull();
  });

  it('the caller alias is not in the key: two names for the same upstream model share an entry', async () => {
    const { app, chat } = await setup('node');
    await openai(app).chat.completions.create({ model: CHAT_MODEL, messages: ask('Same model, other name.') });
    const other = await openai(app).chat.completions.create({ model: 'other-gpt', messages: ask('Same model, other name.') }).withResponse();
    expect(other.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(chat.calls).toBe(1);
  });
});

describe('response cache: never stored', () => {
  it('an upstream error is not stored: the repeat calls the upstream', async () => {
    const { app, chat, held } = await setup('node');
    const client = openai(app);
    await expect(client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Fail first.') }, { headers: { [FAULT_HEADER]: 'status=500' } })).rejects.toMatchObject({ status: 500 });
    await expect(client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Fail first.') }, { headers: { [FAULT_HEADER]: 'status=400' } })).rejects.toMatchObject({ status: 400 });
    expect(await held()).toBe(0);
    const ok = await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Fail first.') }).withResponse();
    expect(ok.response.headers.get('x-modelgate-cache')).toBe('miss');
    expect(chat.calls).toBe(3);
  });

  it('an answer cut by the token limit is not stored (chat length, messages max_tokens)', async () => {
    const { app, chat, messages, held } = await setup('express5');
    for (let round = 0; round < 2; round++) {
      const cut = await openai(app).chat.completions.create({ model: CHAT_MODEL, messages: ask('Write a long essay on the sea.'), max_tokens: 2 }).withResponse();
      expect(cut.data.choices[0]?.finish_reason).toBe('length');
      expect(cut.response.headers.get('x-modelgate-cache')).toBe('miss');
      const message = await anthropic(app).messages.create({ model: MESSAGES_MODEL, max_tokens: 2, messages: ask('Write a long essay on the sea.') });
      expect(message.stop_reason).toBe('max_tokens');
    }
    expect(chat.calls).toBe(2);
    expect(messages.calls).toBe(2);
    expect(await held()).toBe(0);
  });

  it('a stream cut mid-way is not stored', async () => {
    const { app, chat, held } = await setup('node');
    const client = openai(app);
    const stream = await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Tell a story.'), stream: true }, { headers: { [FAULT_HEADER]: 'cut-after=3' } });
    await expect(collectChatStream(stream)).rejects.toThrow();
    expect(await held()).toBe(0);
    await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Tell a story.') });
    expect(chat.calls).toBe(2);
  });

  it('a stream its client left is not stored', async () => {
    const { app, chat, held } = await setup('express5', { tokensPerSecond: 20 });
    const client = openai(app);
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Tell a long story about a fox.'), stream: true }, { signal: controller.signal });
    let chunks = 0;
    try {
      for await (const _chunk of stream) if (++chunks === 2) controller.abort();
    } catch {
      // The client's own abort.
    }
    expect(chunks).toBe(2);
    // The relay learns of the departure from its socket: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await held()).toBe(0);
    await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Tell a long story about a fox.') });
    expect(chat.calls).toBe(2);
  });

  it('chat store: true and Responses previous_response_id bypass the cache', async () => {
    const { app, chat } = await setup('node', { responseStore: true });
    const client = openai(app);
    for (let round = 0; round < 2; round++) {
      const stored = await client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Keep this.'), store: true }).withResponse();
      expect(stored.response.headers.get('x-modelgate-cache')).toBe('bypass');
    }
    expect(chat.calls).toBe(2);
    const turn = await client.responses.create({ model: CHAT_MODEL, input: 'Start a story.' });
    for (let round = 0; round < 2; round++) {
      const next = await client.responses.create({ model: CHAT_MODEL, input: 'Go on.', previous_response_id: turn.id }).withResponse();
      expect(next.response.headers.get('x-modelgate-cache')).toBe('bypass');
    }
    expect(chat.calls).toBe(5);
  });
});

describe('response cache: request controls', () => {
  it('no-cache refreshes the entry, no-store neither reads nor writes, max-age limits the age served', async () => {
    const { app, chat, held, advance } = await setup('node');
    const client = openai(app);
    const body = { model: CHAT_MODEL, messages: ask('What time is it?') };
    const noStore = await client.chat.completions.create(body, { headers: { 'cache-control': 'no-store' } }).withResponse();
    expect(noStore.response.headers.get('x-modelgate-cache')).toBe('bypass');
    expect(await held()).toBe(0);
    await client.chat.completions.create(body);
    expect(chat.calls).toBe(2);
    const refreshed = await client.chat.completions.create(body, { headers: { 'cache-control': 'no-cache' } }).withResponse();
    expect(refreshed.response.headers.get('x-modelgate-cache')).toBe('miss');
    expect(chat.calls).toBe(3);

    advance(120_000);
    const old = await client.chat.completions.create(body, { headers: { 'cache-control': 'max-age=300' } }).withResponse();
    expect(old.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(Number(old.response.headers.get('age'))).toBeGreaterThanOrEqual(120);
    expect(chat.calls).toBe(3);
    const tooOld = await client.chat.completions.create(body, { headers: { 'cache-control': 'max-age=60' } }).withResponse();
    expect(tooOld.response.headers.get('x-modelgate-cache')).toBe('miss');
    expect(chat.calls).toBe(4);
    const fresh = await client.chat.completions.create(body, { headers: { 'cache-control': 'max-age=0' } }).withResponse();
    expect(fresh.response.headers.get('x-modelgate-cache')).toBe('miss');
    expect(chat.calls).toBe(5);
  });

  it('with request controls off, no-cache and no-store are not honoured', async () => {
    const { app, chat } = await setup('express5', { cache: { requestControls: false } });
    const client = openai(app);
    const body = { model: CHAT_MODEL, messages: ask('Ignore my headers.') };
    await client.chat.completions.create(body);
    const answer = await client.chat.completions.create(body, { headers: { 'cache-control': 'no-cache, no-store' } }).withResponse();
    expect(answer.response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(chat.calls).toBe(1);
  });
});

describe('response cache: stampede', () => {
  it('100 concurrent identical requests make one upstream call', async () => {
    const { app, chat } = await setup('node');
    const client = openai(app);
    const answers = await Promise.all(Array.from({ length: 100 }, () =>
      client.chat.completions.create({ model: CHAT_MODEL, messages: ask('All at once.') }, { headers: { [FAULT_HEADER]: 'latency=200' } }).withResponse()));
    expect(chat.calls).toBe(1);
    const results = answers.map((answer) => answer.response.headers.get('x-modelgate-cache'));
    expect(results.filter((result) => result === 'miss')).toHaveLength(1);
    expect(results.filter((result) => result === 'hit')).toHaveLength(99);
    expect(new Set(answers.map((answer) => answer.data.choices[0]?.message.content)).size).toBe(1);
  });

  it('when the first call fails, its waiters go upstream themselves', async () => {
    const { app, chat } = await setup('node');
    const client = openai(app);
    const failing = client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Fail the leader.') }, { headers: { [FAULT_HEADER]: 'status=500; latency=1000' } });
    // The waiters come while the leader's call is at the upstream (not after it failed: they would then form a flight of their own).
    while (chat.calls < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const waiters = Array.from({ length: 3 }, () => client.chat.completions.create({ model: CHAT_MODEL, messages: ask('Fail the leader.') }));
    await expect(failing).rejects.toMatchObject({ status: 500 });
    const answers = await Promise.all(waiters);
    expect(answers.every((answer) => answer.choices[0]?.finish_reason === 'stop')).toBe(true);
    expect(chat.calls).toBe(4);
  });

  it('a failing store answers every request from upstream (misses), never an error', async () => {
    const store = mapCacheStore();
    store.failing = true;
    // A store that fails every command (the real-Redis outage is in cache-shared.redis.test.ts).
    const { app, chat } = await setup('express5', { store });
    for (let round = 0; round < 2; round++) {
      const answer = await openai(app).chat.completions.create({ model: CHAT_MODEL, messages: ask('Store is down.') }).withResponse();
      expect(answer.response.headers.get('x-modelgate-cache')).toBe('miss');
    }
    expect(chat.calls).toBe(2);
  });
});
