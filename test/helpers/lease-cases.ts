/**
 * Concurrency leases over real HTTP: a gateway mounted on node:http (and a
 * second instance on Express sharing the store, for Redis), an upstream stub
 * on 127.0.0.1 whose answers last several lease lengths, and a store that
 * counts releases per lease id. Run on each store by
 * test/integration/limits-leases.test.ts (memory) and
 * limits-leases.redis.test.ts (ioredis, node-redis, two instances).
 *
 * The model id picks the stub's answer:
 * - `lease-long`: a stream of one event every 100 ms for 3 s, then its end;
 * - `lease-cut`: the same for 2 s, then the connection drops mid-stream;
 * - `lease-slow-json`: a non-streamed answer after 1.5 s;
 * - `lease-fail`: a 500 at once;
 * - anything else: a non-streamed answer at once.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { createGateway, type Gateway, type LimitStore, openAICompatible } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CountingLimitStore, countingLimitStore } from './counting-limit-store.js';
import { type Mount, type StartedApp, startApp } from './start-app.js';
import { type StubEvent, type StubReply, type StubUpstream, startStubUpstream } from './stub-upstream.js';

export const KEY = 'sk-lease-0123456789';
/** One second: the smallest whole lease; renewed every third of it. */
export const LEASE_SECONDS = 1;
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const chunk = (model: string, content: string, finish: string | null = null): string =>
  JSON.stringify({ id: 'chatcmpl-lease', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: finish }] });
const answer = (model: string) => ({
  id: 'chatcmpl-lease', object: 'chat.completion', created: 1, model,
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});
/** Events 100 ms apart for `ms`. */
const paced = (model: string, ms: number): StubEvent[] => Array.from({ length: ms / 100 }, () => ({ data: chunk(model, 'x'), delayMs: 100 }));

/** The stub's answer to one request (see the file's comment). */
export function leaseReply(model: string): StubReply {
  switch (model) {
    case 'lease-long':
      return { kind: 'sse', events: [...paced(model, 3000), { data: chunk(model, '', 'stop') }, { data: '[DONE]' }] };
    case 'lease-cut':
      return { kind: 'sse', events: paced(model, 2000), then: 'cut' };
    case 'lease-slow-json':
      return { kind: 'json', body: answer(model), delayMs: 1500 };
    case 'lease-fail':
      return { kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error', param: null, code: null } } };
    default:
      return { kind: 'json', body: answer(model) };
  }
}

export function startLeaseStub(): Promise<StubUpstream> {
  return startStubUpstream((request) => leaseReply(String((JSON.parse(request.body) as { model?: unknown }).model)));
}

/** A response whose head arrived; `request` is destroyed to play a client that leaves. */
export interface OpenResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
  leave(): void;
}

/** POSTs a chat request with a raw node:http client (no SDK reading ahead or retrying). */
export function ask(url: string, model: string, stream = false): Promise<OpenResponse> {
  const payload = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }], ...(stream ? { stream: true } : {}) });
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/chat/completions`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    req.once('response', (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, leave: () => req.destroy() }));
    req.once('error', reject);
    req.end(payload);
  });
}

/** Reads a response to its end; resolves with its text. */
export async function readAll(response: OpenResponse): Promise<string> {
  let text = '';
  for await (const part of response.body) text += String(part);
  return text;
}

/** The status of a request read to its end (the answer frees its slot before this resolves). */
export async function statusOf(url: string, model = 'lease-quick'): Promise<number> {
  const response = await ask(url, model);
  await readAll(response);
  return response.status;
}

/** Every admitted lease was released exactly once. */
export function expectEachReleasedOnce(store: CountingLimitStore | readonly CountingLimitStore[]): void {
  const stores = Array.isArray(store) ? store : [store];
  const admitted = stores.flatMap((one) => one.admitted);
  const released = new Map<string, number>();
  for (const one of stores) for (const [id, count] of one.released) released.set(id, (released.get(id) ?? 0) + count);
  expect(admitted.length).toBeGreaterThan(0);
  expect(new Set(admitted).size).toBe(admitted.length);
  expect(Object.fromEntries(released)).toEqual(Object.fromEntries(admitted.map((id) => [id, 1])));
}

/** Two gateway instances (node:http and Express 5) over one stub, each with the store `makeStore(index)` makes. */
export interface LeaseApps {
  stub: StubUpstream;
  apps: StartedApp[];
  stores: CountingLimitStore[];
}

/** Starts the stub and one app per store maker, before the suite's tests; closes them after. */
export function useLeaseApps(makeStores: ReadonlyArray<() => LimitStore>): LeaseApps {
  const mounts: Mount[] = ['node', 'express5'];
  const state = { stub: undefined as unknown as StubUpstream, apps: [] as StartedApp[], stores: [] as CountingLimitStore[] };
  beforeAll(async () => {
    state.stub = await startLeaseStub();
    for (const [index, makeStore] of makeStores.entries()) {
      const store = countingLimitStore(makeStore());
      const gateway: Gateway = createGateway({
        auth: { keys: [KEY] },
        routes: [{ match: '*', upstream: openAICompatible({ baseURL: `${state.stub.url}/v1`, apiKey: 'sk-upstream', name: 'stub' }) }],
        limits: {
          rules: [{ concurrent: 1 }],
          concurrencyLeaseSeconds: LEASE_SECONDS,
          store,
          // This is about leases, not the outage policy: a slow answer on a loaded machine must not
          // switch to the per-instance stand-in.
          storeTimeoutMs: 5000,
        },
      });
      state.stores.push(store);
      state.apps.push(await startApp(mounts[index % mounts.length]!, gateway));
    }
  });
  afterAll(async () => {
    await Promise.all(state.apps.map((app) => app.close()));
    await state.stub?.close();
  });
  return state;
}

/** Clears the counts between cases (the stores keep their counters: every case ends with the slot free). */
function resetCounts(stores: readonly CountingLimitStore[]): void {
  for (const store of stores) {
    store.admitted.length = 0;
    store.released.clear();
    store.renewed.clear();
  }
}

/**
 * The cases on one store. With two makers, the long stream runs on the
 * first instance and the other requests go to the second, which shares the store.
 */
export function describeLeases(name: string, makeStores: ReadonlyArray<() => LimitStore>): void {
  describe(`concurrency leases over HTTP (${name})`, () => {
    const setup = useLeaseApps(makeStores);
    const first = () => setup.apps[0]!.url;
    const other = () => setup.apps[setup.apps.length - 1]!.url;
    const leaseOf = (index: number) => setup.stores.flatMap((store) => store.admitted)[index]!;
    const renewals = (id: string) => setup.stores.reduce((sum, store) => sum + (store.renewed.get(id) ?? 0), 0);

    it('a stream three lease lengths long keeps its slot (renewed), frees it when it ends, and is released once', async () => {
      resetCounts(setup.stores);
      const long = await ask(first(), 'lease-long', true);
      expect(long.status).toBe(200);
      let ended = false;
      const reading = readAll(long).then((text) => {
        ended = true;
        return text;
      });
      // At a lease and a half, then at more than two: the lease has been renewed, not left to expire.
      for (const wait of [1500, 800]) {
        await sleep(wait);
        const refused = await ask(other(), 'lease-quick');
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toBeDefined();
        await readAll(refused);
        expect(ended).toBe(false);
      }
      expect(await reading).toContain('[DONE]');
      // The next one is admitted at once, not after a lease.
      expect(await statusOf(other())).toBe(200);
      expect(renewals(leaseOf(0))).toBeGreaterThanOrEqual(2);
      await vi.waitFor(() => expectEachReleasedOnce(setup.stores), { timeout: 2000 });
    });

    it('a client that leaves mid-stream frees the slot at once, released once (the abort backstop does not release again)', async () => {
      resetCounts(setup.stores);
      const long = await ask(first(), 'lease-long', true);
      const reader = long.body[Symbol.asyncIterator]();
      await reader.next();
      await sleep(1500);
      expect((await ask(other(), 'lease-quick')).status).toBe(429);
      long.leave();
      await vi.waitFor(async () => expect(await statusOf(other())).toBe(200), { timeout: 2000, interval: 50 });
      // Past the backstop that settles a stream whose client left before it started (2 s).
      await sleep(2500);
      expectEachReleasedOnce(setup.stores);
    });

    it('a stream its upstream cuts mid-way frees the slot with its error event, released once', async () => {
      resetCounts(setup.stores);
      const cut = await ask(first(), 'lease-cut', true);
      const reading = readAll(cut);
      await sleep(1500);
      expect((await ask(other(), 'lease-quick')).status).toBe(429);
      const text = await reading;
      expect(text).toContain('"error"');
      expect(await statusOf(other())).toBe(200);
      await vi.waitFor(() => expectEachReleasedOnce(setup.stores), { timeout: 2000 });
    });

    it('a non-streamed call longer than the lease keeps its slot; it and a failed call are released once', async () => {
      resetCounts(setup.stores);
      const slow = ask(first(), 'lease-slow-json');
      await sleep(1250);
      expect((await ask(other(), 'lease-quick')).status).toBe(429);
      const answered = await slow;
      await readAll(answered);
      expect(answered.status).toBe(200);
      expect(await statusOf(other(), 'lease-fail')).toBeGreaterThanOrEqual(500);
      expect(await statusOf(other())).toBe(200);
      await vi.waitFor(() => expectEachReleasedOnce(setup.stores), { timeout: 2000 });
      expect(setup.stores.flatMap((store) => store.admitted)).toHaveLength(3);
    });
  });
}
