/**
 * Concurrency leases with the in-memory store, over real HTTP: a stream or
 * call longer than `concurrencyLeaseSeconds` keeps its slot while it lives
 * and frees it exactly once when it ends, however it ends (the Redis store:
 * limits-leases.redis.test.ts). A stream whose client stops reading is left
 * to its lease.
 */
import { createGateway, memoryLimitStore, openAICompatible } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, describeLeases, KEY, LEASE_SECONDS, readAll, sleep, statusOf } from '../helpers/lease-cases.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubUpstream, startStubUpstream, writeChunk } from '../helpers/stub-upstream.js';

describeLeases('memory store', [() => memoryLimitStore()]);

const EVENT = `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"lease-flood","choices":[{"index":0,"delta":{"content":"${'x'.repeat(1000)}"},"finish_reason":null}]}\n\n`;
/** 64 KiB of whole events every 10 ms: a client reading along takes each at once; one that stops fills the socket buffers within seconds. */
const BLOCK = EVENT.repeat(Math.floor((64 * 1024) / EVENT.length));
/** Far more than the socket buffers between the gateway and a client that stopped reading hold. */
const FLOOD_BYTES = 64 * 1024 * 1024;

describe('a stream whose client stops reading (default in-memory store)', () => {
  let stub: StubUpstream;
  let app: StartedApp;
  beforeAll(async () => {
    // 64 KiB every 10 ms while the gateway reads: past the socket buffers, only the client's backpressure holds it back.
    stub = await startStubUpstream([{
      kind: 'handler',
      async handle(_req, res) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let sent = 0; sent < FLOOD_BYTES; sent += BLOCK.length) {
          if (!(await writeChunk(res, BLOCK))) return;
          await sleep(10);
        }
        res.end('data: [DONE]\n\n');
      },
    }, { kind: 'json', body: { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }] } }]);
    app = await startApp('node', createGateway({
      auth: { keys: [KEY] },
      routes: [{ match: '*', upstream: openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-upstream', name: 'stub' }) }],
      limits: { rules: [{ concurrent: 1 }], concurrencyLeaseSeconds: LEASE_SECONDS },
    }));
  });
  afterAll(async () => {
    await app?.close();
    await stub?.close();
  });

  it('is left to its lease: its slot frees a lease after the client stalls, and the stream goes on when it reads again', { timeout: 60_000 }, async () => {
    const stalled = await ask(app.url, 'lease-flood', true);
    expect(stalled.status).toBe(200);
    // Read along for a lease and a half: the lease is renewed while the stream moves on.
    const reader = stalled.body[Symbol.asyncIterator]();
    for (const until = Date.now() + LEASE_SECONDS * 1500; Date.now() < until; ) await reader.next();
    const refused = await ask(app.url, 'lease-quick');
    await readAll(refused);
    expect(refused.status).toBe(429);
    // Then stop: once the socket buffers are full the gateway stops pulling the stream, so it stops
    // renewing, and the slot is free a lease later, while the stream is still open.
    stalled.body.pause();
    const stalledAt = Date.now();
    await vi.waitFor(async () => expect(await statusOf(app.url)).toBe(200), { timeout: 15_000, interval: 250 });
    expect(Date.now() - stalledAt).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000);
    // The upstream is still sending: the slot was freed by the lease, not by the stream's end.
    expect(stub.requests[0]!.closedAt).toBeUndefined();
    // The client reads again: the stream goes on where it stopped (it was never cut), then the client leaves.
    let resumed = 0;
    while (resumed < 1024 * 1024) {
      const part = await reader.next();
      expect(part.done).toBe(false);
      resumed += (part.value as Buffer).length;
    }
    stalled.leave();
    await stub.closed(0);
  });
});
