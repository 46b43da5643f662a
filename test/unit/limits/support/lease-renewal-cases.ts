/**
 * What the lease-renewal suites share: an upstream that streams for 3 s, a
 * chat asker, and the long-stream case run on each store (memory in
 * lease-renewal.test.ts, Redis in lease-renewal.redis.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../../../src/gateway.js';
import type { LimitStore } from '../../../../src/limits/limit-store.js';
import type { GatewayResponse } from '../../../../src/types.js';
import type { UpstreamResponse } from '../../../../src/upstreams/upstream.js';

const encoder = new TextEncoder();
const chunk = (text: string) =>
  encoder.encode(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`);
const ANSWER = encoder.encode(JSON.stringify({
  id: 'c1', object: 'chat.completion', created: 1, model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
}));
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams one event every 100 ms for `STREAM_MS`; answers JSON at once otherwise. */
const STREAM_MS = 3000;
export const upstream = {
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
export function asker(gateway: ReturnType<typeof createGateway>) {
  return (stream: boolean, signal = new AbortController().signal) =>
    gateway.handle({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-a', 'content-type': 'application/json' },
      body: { model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...(stream ? { stream: true } : {}) },
      signal,
    });
}

export async function drain(response: GatewayResponse): Promise<void> {
  if (response.type === 'json' || response.body instanceof Uint8Array) return;
  for await (const part of response.body) void part;
}

/** The long-stream case on one store (`undefined`: the default in-memory store). */
export function describeLongStream(name: string, makeStore: () => LimitStore | undefined): void {
  describe(`a stream longer than the concurrency lease (${name} store)`, () => {
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
}
