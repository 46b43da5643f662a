/**
 * Review: before the renewals, a concurrency lease whose release never came
 * (a streamed answer dropped unread by a handle() caller whose signal never
 * aborts) expired after concurrencyLeaseSeconds. Now the limiter renews it
 * for as long as its settlement is unfinished: forever.
 */
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway.js';

const headers = { authorization: 'Bearer sk-a', 'content-type': 'application/json' };
const messages = [{ role: 'user', content: 'Hi' }];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a streamed answer dropped unread', () => {
  it('does not hold its concurrency slot past the lease', async () => {
    const gateway = createGateway({
      auth: { keys: ['sk-a'] },
      limits: { rules: [{ concurrent: 1 }], concurrencyLeaseSeconds: 1 },
    });
    const ask = (stream: boolean) => gateway.handle({
      method: 'POST', url: '/v1/chat/completions', headers, signal: new AbortController().signal,
      body: { model: 'gpt-4o-mini', messages, ...(stream ? { stream: true } : {}) },
    });
    const dropped = await ask(true);
    expect(dropped.status).toBe(200);
    // Never read, never returned (the caller went away without telling the gateway).
    await sleep(2500);
    const next = await ask(false);
    expect(next.status).toBe(200);
    await gateway.close();
  }, 10_000);
});
