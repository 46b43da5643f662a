/**
 * The response cache shares its room fairly between principals, over real
 * HTTP (node:http and Express) through the official client: each fill
 * carries its owner (the principal, or `'shared'` under `scope: 'shared'`,
 * never a key), and one principal sending many distinct requests to a full
 * memory cache drops its own entries, never another's.
 */
import { memoryResponseCache, type ResponseCacheStore } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { countCalls } from '../helpers/counting-upstream.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const ALICE = 'sk-fair-alice-0123456789';
const BOB = 'sk-fair-bob-0123456789ab';
const MODEL = 'gpt-4o';
const MAX_BYTES = 64 * 1024;

let started: StartedApp[] = [];
afterEach(async () => {
  await Promise.all(started.map((app) => app.close()));
  started = [];
});

async function setup(mount: Mount, store: ResponseCacheStore, scope: 'principal' | 'shared' = 'principal') {
  const chat = countCalls(createSimulator().upstreams.chat);
  const app = await startApp(mount, {
    auth: { keys: [{ key: ALICE, id: 'alice' }, { key: BOB, id: 'bob' }] },
    routes: [{ match: MODEL, upstream: chat, retries: 0 }],
    cache: { store, scope },
  });
  started.push(app);
  return { app, chat };
}

async function ask(app: StartedApp, key: string, text: string): Promise<string | null> {
  const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: key, maxRetries: 0 });
  const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: text }] }).withResponse();
  return answer.response.headers.get('x-modelgate-cache');
}

/** A store that records the owner of every fill, then stores as the memory cache does. */
function ownerRecordingStore(): { store: ResponseCacheStore; owners: Array<string | undefined> } {
  const inner = memoryResponseCache();
  const owners: Array<string | undefined> = [];
  return {
    owners,
    store: {
      lookup: (key, options) => inner.lookup(key, options),
      fill: (key, entry, options) => {
        owners.push(options.owner);
        return inner.fill(key, entry, options);
      },
      release: (key, token) => inner.release(key, token),
    },
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe.each(['node', 'express5'] as const)('response cache fairness on %s', (mount) => {
  it('Alice filling a full cache with distinct requests drops her own entries; Bob’s still answer', async () => {
    const store = memoryResponseCache({ maxBytes: MAX_BYTES });
    const { app, chat } = await setup(mount, store);
    expect(await ask(app, BOB, 'Bob asks about rivers.')).toBe('miss');
    expect(await ask(app, BOB, 'Bob asks about lakes.')).toBe('miss');
    await settle();
    const perEntry = (await store.bytesHeld!()) / 2;
    expect(perEntry).toBeGreaterThan(0);
    // Twice the cache's room in distinct answers of Alice's.
    const count = Math.ceil((2 * MAX_BYTES) / perEntry) + 1;
    for (let index = 0; index < count; index++) expect(await ask(app, ALICE, `Alice asks question number ${index}.`)).toBe('miss');
    await settle();
    const calls = chat.calls;
    expect(await ask(app, BOB, 'Bob asks about rivers.')).toBe('hit');
    expect(await ask(app, BOB, 'Bob asks about lakes.')).toBe('hit');
    expect(chat.calls).toBe(calls);
    // Her own oldest went; her latest is still there.
    expect(await ask(app, ALICE, `Alice asks question number ${count - 1}.`)).toBe('hit');
    expect(await ask(app, ALICE, 'Alice asks question number 0.')).toBe('miss');
    expect(await store.bytesHeld!()).toBeLessThanOrEqual(MAX_BYTES);
  });
});

describe('the owner of a fill', () => {
  it('is the principal under scope principal, never the key', async () => {
    const { store, owners } = ownerRecordingStore();
    const { app } = await setup('node', store);
    await ask(app, ALICE, 'Whose is this?');
    await ask(app, BOB, 'Whose is this?');
    await settle();
    expect(owners).toEqual(['alice', 'bob']);
  });

  it("is 'shared' under scope shared, whoever filled it", async () => {
    const { store, owners } = ownerRecordingStore();
    const { app } = await setup('express5', store, 'shared');
    await ask(app, ALICE, 'One answer for all.');
    await ask(app, BOB, 'Another answer for all.');
    await settle();
    expect(owners).toEqual(['shared', 'shared']);
  });
});
