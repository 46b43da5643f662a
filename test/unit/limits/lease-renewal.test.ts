/**
 * A request that runs longer than `concurrencyLeaseSeconds` (a long agent
 * stream) keeps its concurrency slot to its end: the limiter renews the
 * leases of running requests every third of the lease, in memory and in a
 * real Redis (lease-renewal.redis.test.ts); the slot is free again once the stream ends.
 */
import { describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../../src/gateway.js';
import { asker, describeLongStream, drain, sleep, upstream } from './support/lease-renewal-cases.js';

describeLongStream('memory', () => undefined);

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
