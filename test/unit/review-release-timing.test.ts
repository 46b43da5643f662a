/**
 * Review (expected to pass): the deadline's release comes neither too early
 * nor never on the paths the brief names.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway.js';
import type { LimitStore } from '../../src/limits/limit-store.js';
import type { GatewayResponse } from '../../src/types.js';
import type { UpstreamCall, UpstreamResponse } from '../../src/upstreams/upstream.js';

const encoder = new TextEncoder();
const headers = { authorization: 'Bearer sk-a', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
const messages = [{ role: 'user', content: 'Hi' }];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CHAT_CHUNK = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] })}\n\n`;

/** A chat upstream: JSON answers trickle (first half, then wait for abort); streams send one chunk per 5 ms until aborted or `limit` chunks. */
function upstream(signals: AbortSignal[], limit = Infinity) {
  return {
    name: 'u',
    format: 'chat' as const,
    send(call: UpstreamCall): Promise<UpstreamResponse> {
      signals.push(call.signal);
      if (!call.stream) {
        const body = (async function* () {
          yield encoder.encode('{"id":"c1","object":"chat.completion",');
          await new Promise<void>((resolve) => call.signal.addEventListener('abort', () => resolve()));
          throw new Error('aborted');
        })();
        return Promise.resolve({ status: 200, headers: { 'content-type': 'application/json' }, body });
      }
      const body = (async function* () {
        for (let i = 0; i < limit && !call.signal.aborted; i++) {
          yield encoder.encode(CHAT_CHUNK);
          await sleep(5);
        }
        yield encoder.encode('data: [DONE]\n\n');
      })();
      return Promise.resolve({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
    },
  };
}

async function readAll(response: GatewayResponse): Promise<void> {
  if (response.type === 'json' || response.body instanceof Uint8Array) return;
  for await (const part of response.body) void part;
}

describe('release timing', () => {
  it('a non-streamed answer still being read is aborted by the shared signal (call.signal)', async () => {
    const signals: AbortSignal[] = [];
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: '*', upstream: upstream(signals), retries: 0 }], requestTimeoutMs: 60_000 });
    const shared = new AbortController();
    const answer = gateway.handle({ method: 'POST', url: '/v1/chat/completions', headers, signal: shared.signal, body: { model: 'm', messages } });
    await sleep(50);
    expect(signals[0]!.aborted).toBe(false);
    shared.abort(new Error('bye'));
    expect(signals[0]!.aborted).toBe(true);
    await answer;
    expect(getEventListeners(shared.signal, 'abort').length).toBe(0);
    await gateway.close();
  });

  it('a translated stream (messages client, chat upstream) passes an abort to call.signal, and leaves no listener at its end', async () => {
    const signals: AbortSignal[] = [];
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: '*', upstream: upstream(signals), serveMessages: true }], requestTimeoutMs: 60_000 });
    const shared = new AbortController();
    const ask = () => gateway.handle({ method: 'POST', url: '/v1/messages', headers: { ...headers, 'x-api-key': 'sk-a' }, signal: shared.signal, body: { model: 'm', messages, max_tokens: 16, stream: true } });
    const response = await ask();
    expect(response.status).toBe(200);
    const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    shared.abort(new Error('bye'));
    expect(signals[0]!.aborted).toBe(true);
    await gateway.close();
    const other = new AbortController();
    const g2 = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: '*', upstream: upstream([], 3), serveMessages: true }], requestTimeoutMs: 60_000 });
    const done = await g2.handle({ method: 'POST', url: '/v1/messages', headers: { ...headers, 'x-api-key': 'sk-a' }, signal: other.signal, body: { model: 'm', messages, max_tokens: 16, stream: true } });
    await readAll(done);
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(other.signal, 'abort').length).toBe(0);
    await g2.close();
  });

  it('drain mode: no listener left after a stream read to its end, nor after a client abort once drained', async () => {
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: '*', upstream: upstream([], 5), onClientAbort: 'drain' }], requestTimeoutMs: 60_000, onUsage: () => {} });
    const shared = new AbortController();
    const ask = () => gateway.handle({ method: 'POST', url: '/v1/chat/completions', headers, signal: shared.signal, body: { model: 'm', messages, stream: true } });
    for (let i = 0; i < 5; i++) {
      await readAll(await ask());
      await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(shared.signal, 'abort').length).toBe(0);
    }
    await gateway.close();
  });

  it('the stand-in (fail-open) store renews the leases it holds', async () => {
    const failing: LimitStore = { reserve: () => Promise.reject(new Error('down')), settle: () => Promise.reject(new Error('down')), renew: () => Promise.reject(new Error('down')) };
    const gateway = createGateway({
      auth: { keys: ['sk-a'] },
      routes: [{ match: '*', upstream: upstream([], 300) }],
      limits: { rules: [{ concurrent: 1 }], concurrencyLeaseSeconds: 1, store: failing, onStoreError: 'open', onStoreFailure: () => {} },
    });
    const ask = (stream: boolean) => gateway.handle({ method: 'POST', url: '/v1/chat/completions', headers, signal: new AbortController().signal, body: { model: 'm', messages, ...(stream ? { stream: true } : {}) } });
    const long = await ask(true);
    expect(long.status).toBe(200);
    const reading = readAll(long);
    await sleep(1600);
    const refused = await ask(true);
    expect(refused.status).toBe(429);
    await reading;
    await gateway.close();
  }, 10_000);
});
