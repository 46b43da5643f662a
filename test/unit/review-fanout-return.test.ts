/**
 * Review: an n > 1 fan-out stream whose body is returned before its first
 * read (what node-response.ts does when the head could not be written, or
 * the socket is already gone; what a handle() caller does to drop a stream)
 * must end its relays like a single stream does: no listener left on the
 * caller's long-lived signal, and the limits' settlement finished.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway.js';
import type { GatewayResponse } from '../../src/types.js';

const headers = { authorization: 'Bearer sk-a', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
const messages = [{ role: 'user', content: 'Hi' }];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function returnUnread(response: GatewayResponse): Promise<void> {
  if (response.type === 'json' || response.body instanceof Uint8Array) throw new Error('expected a stream');
  await response.body[Symbol.asyncIterator]().return?.();
  await new Promise((resolve) => setImmediate(resolve));
}

describe('a stream body returned before its first read', () => {
  it('n = 1 (control): leaves no listener on the shared signal', async () => {
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, requestTimeoutMs: 60_000 });
    const shared = new AbortController();
    const response = await gateway.handle({
      method: 'POST', url: '/v1/chat/completions', headers, signal: shared.signal,
      body: { model: 'vendora-sonnet-4-6', messages, max_tokens: 16, stream: true },
    });
    expect(response.status).toBe(200);
    await returnUnread(response);
    expect(getEventListeners(shared.signal, 'abort').length).toBe(0);
    await gateway.close();
  });

  it('n = 2 fan-out: leaves no listener on the shared signal', async () => {
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, requestTimeoutMs: 60_000 });
    const shared = new AbortController();
    const response = await gateway.handle({
      method: 'POST', url: '/v1/chat/completions', headers, signal: shared.signal,
      body: { model: 'vendora-sonnet-4-6', messages, n: 2, max_tokens: 16, stream: true },
    });
    expect(response.status).toBe(200);
    await returnUnread(response);
    expect(getEventListeners(shared.signal, 'abort').length).toBe(0);
    await gateway.close();
  });

  it('n = 2 fan-out under a concurrency limit: the slot is free again (not renewed forever)', async () => {
    const gateway = createGateway({
      auth: { keys: ['sk-a'] }, requestTimeoutMs: 60_000,
      limits: { rules: [{ concurrent: 1 }], concurrencyLeaseSeconds: 1 },
    });
    const shared = new AbortController();
    const ask = (extra: Record<string, unknown>) => gateway.handle({
      method: 'POST', url: '/v1/chat/completions', headers, signal: shared.signal,
      body: { model: 'vendora-sonnet-4-6', messages, max_tokens: 16, ...extra },
    });
    const response = await ask({ n: 2, stream: true });
    expect(response.status).toBe(200);
    await returnUnread(response);
    // Twice the lease: even a lost release would have expired by now (it did before the renewals).
    await sleep(2200);
    const next = await ask({});
    expect(next.status).toBe(200);
    await gateway.close();
  }, 10_000);
});

describe('a fan-out stream returned while a read is pending (silent upstream)', () => {
  it('reaches the relays at once: return() settles and no listener stays on the shared signal', async () => {
    const signals: AbortSignal[] = [];
    const encoder = new TextEncoder();
    const start = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } })}\n\n`;
    const silent = {
      name: 'silent',
      format: 'messages' as const,
      send(call: { signal: AbortSignal }) {
        signals.push(call.signal);
        const body = (async function* () {
          yield encoder.encode(start);
          await new Promise<void>((resolve) => call.signal.addEventListener('abort', () => resolve()));
        })();
        return Promise.resolve({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
      },
    };
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: '*', upstream: silent }], requestTimeoutMs: 60_000, heartbeatMs: 0 });
    const shared = new AbortController();
    const response = await gateway.handle({
      method: 'POST', url: '/v1/chat/completions', headers, signal: shared.signal,
      body: { model: 'm', messages, n: 2, max_tokens: 16, stream: true },
    });
    expect(response.status).toBe(200);
    if (response.type !== 'sse') throw new Error('expected a stream');
    const iterator = response.body[Symbol.asyncIterator]();
    const pending = iterator.next(); // waits on the silent upstreams
    void pending.catch(() => {});
    await sleep(50);
    const returned = Promise.race([iterator.return?.().then(() => 'returned'), sleep(1000).then(() => 'still pending')]);
    expect(await returned).toBe('returned');
    expect(getEventListeners(shared.signal, 'abort').length).toBe(0);
    await gateway.close();
  });
});
