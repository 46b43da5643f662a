/**
 * A request that runs longer than `concurrencyLeaseSeconds` (a long agent
 * stream) keeps its concurrency slot to its end: the limiter renews the
 * leases of running requests every third of the lease, in memory and in a
 * real Redis; the slot is free again once the stream ends.
 */
import { describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../../src/gateway.js';
import { redisLimitStore } from '../../../src/limits/redis-limit-store.js';
import type { LimitStore } from '../../../src/limits/limit-store.js';
import type { GatewayResponse } from '../../../src/types.js';
import type { UpstreamResponse } from '../../../src/upstreams/upstream.js';
import { useRedisClients } from '../../helpers/redis-clients.js';

const encoder = new TextEncoder();
const chunk = (text: string) =>
  encoder.encode(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`);
const ANSWER = encoder.encode(JSON.stringify({
  id: 'c1', object: 'chat.completion', created: 1, model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
}));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams one event every 100 ms for `STREAM_MS`; answers JSON at once otherwise. */
const STREAM_MS = 3000;
const upstream = {
  name: 'slow',
  format: 'chat' as const,
  send(call: { stream?: boolean }): Promise<UpstreamResponse> {
    if (!call.stream) {
      return Promise.resolve({ status: 200, headers: { 'content-type': 'application/json' }, body: (async function* () { yield ANSWER; })() });
    }
    const body = (async function* () {
      for (let elapsed = 0; elapsed < STREAM_MS; elapsed += 100) {
        yield chunk('x');
        await sleep(100);
      }
      yield encoder.encode('data: [DONE]\n\n');
    })();
    return Promise.resolve({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
  },
};

/** A chat request to `gateway`, streamed or not, as its own client (a signal of its own unless given). */
function asker(gateway: ReturnType<typeof createGateway>) {
  return (stream: boolean, signal = new AbortController().signal) =>
    gateway.handle({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-a', 'content-type': 'application/json' },
      body: { model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...(stream ? { stream: true } : {}) },
      signal,
    });
}

async function drain(response: GatewayResponse): Promise<void> {
  if (response.type === 'json' || response.body instanceof Uint8Array) return;
  for await (const part of response.body) void part;
}

const redis = useRedisClients();

const stores: Array<[string, () => LimitStore | undefined]> = [
  ['memory', () => undefined],
  ['redis', () => redisLimitStore({ client: redis.io, prefix: `renewal${Date.now()}:` })],
];

describe.each(stores)('a stream longer than the concurrency lease (%s store)', (_name, makeStore) => {
  it('keeps its slot to its end (a 1 s lease, a 3 s stream), then frees it', async () => {
    const store = makeStore();
    const gateway = createGateway({
      auth: { keys: ['sk-a'] },
      routes: [{ match: '*', upstream }],
      // A generous store time-out: this test is about renewal, not the outage policy.
      limits: { rules: [{ concurrent: 1 }], concurrencyLeaseSeconds: 1, ...(store ? { store, storeTimeoutMs: 5000 } : {}) },
    });
    const ask = asker(gateway);
    const long = await ask(true);
    expect(long.status).toBe(200);
    let ended = false;
    const reading = drain(long).then(() => {
      ended = true;
    });
    // Well past the 1 s lease (renewed every ~333 ms), before the stream's end.
    await sleep(1800);
    const refused = await ask(false);
    expect(ended).toBe(false);
    expect(refused.status).toBe(429);
    await reading;
    const admitted = await ask(false);
    expect(admitted.status).toBe(200);
    await gateway.close();
  });
});

describe('a stream nobody reads any more', () => {
  it('is left to its lease: dropped unread (never returned, its signal never aborts), its slot is free after the lease', async () => {
    const gateway = createGateway({
      auth: { keys: ['sk-a'] },
      routes: [{ match: '*', upstream }],
      limits: { rules: [{ concurrent: 1 }], concurrencyLeaseSeconds: 1 },
    });
    const ask = asker(gateway);
    const dropped = await ask(true);
    expect(dropped.status).toBe(200);
    expect((await ask(false)).status).toBe(429);
    // Twice the lease: renewed only while read, so it has expired.
    await sleep(2200);
    expect((await ask(false)).status).toBe(200);
    await gateway.close();
  });
});

describe('a stream drained after its client left (onClientAbort: drain)', () => {
  it('keeps its slot while the rest is read, past the lease, and frees it at the end', async () => {
    const gateway = createGateway({
      auth: { keys: ['sk-a'] },
      routes: [{ match: '*', upstream, onClientAbort: 'drain' }],
      limits: { rules: [{ concurrent: 1 }], concurrencyLeaseSeconds: 1 },
      onUsage: (record) => records.push(record.aborted),
    });
    const records: boolean[] = [];
    const ask = asker(gateway);
    const client = new AbortController();
    const left = await ask(true, client.signal);
    const iterator = (left.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await iterator.next();
    client.abort();
    // Past the 1 s lease, while the 3 s upstream stream is still being drained.
    await sleep(1800);
    expect(records).toEqual([]);
    expect((await ask(false)).status).toBe(429);
    await vi.waitFor(() => expect(records).toEqual([true]), { timeout: 5000 });
    expect((await ask(false)).status).toBe(200);
    await gateway.close();
  });
});
