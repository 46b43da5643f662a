/**
 * A caller of `gateway.handle()` may pass one long-lived signal (a server's
 * shutdown signal) to every request. Each call listens to it while it runs
 * (the request deadline passes the client's abort on to `call.signal`) and
 * must stop listening when it ends, on every path: a JSON answer, an
 * upstream error, a refused answer, a stream read to its end, a stream the
 * client stops reading, n > 1 fan-out. Otherwise the signal collects one
 * listener per request and Node warns (MaxListenersExceededWarning).
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../../src/gateway.js';
import type { GatewayResponse } from '../../../src/types.js';
import type { UpstreamCall, UpstreamResponse } from '../../../src/upstreams/upstream.js';

const encoder = new TextEncoder();
const CHUNK = (text: string) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
const ANSWER = JSON.stringify({
  id: 'c1', object: 'chat.completion', created: 1, model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});

type Mode = 'json' | 'stream' | 'error' | 'html' | 'endless';

/** An in-process chat upstream whose answer the test picks per call (by the model name), recording the calls' signals. */
function scriptedUpstream(signals: AbortSignal[]) {
  return {
    name: 'scripted',
    format: 'chat' as const,
    send(call: UpstreamCall): Promise<UpstreamResponse> {
      signals.push(call.signal);
      const mode = String((call.body as { model?: string } | undefined)?.model ?? JSON.parse(Buffer.from(call.rawBody ?? []).toString() || '{}').model) as Mode;
      const bytes = (text: string) => (async function* () { yield encoder.encode(text); })();
      if (mode === 'json') return Promise.resolve({ status: 200, headers: { 'content-type': 'application/json' }, body: bytes(ANSWER) });
      if (mode === 'error') return Promise.resolve({ status: 500, headers: { 'content-type': 'application/json' }, body: bytes('{"error":{"message":"boom"}}') });
      if (mode === 'html') return Promise.resolve({ status: 200, headers: { 'content-type': 'text/html' }, body: bytes('<html></html>') });
      const endless = mode === 'endless';
      const body = (async function* () {
        for (let i = 0; endless || i < 3; i++) {
          yield encoder.encode(CHUNK(`t${i} `));
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        yield encoder.encode('data: [DONE]\n\n');
      })();
      return Promise.resolve({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
    },
  };
}

async function readAll(response: GatewayResponse, stopAfter = Infinity): Promise<void> {
  if (response.type === 'json' || response.body instanceof Uint8Array) return;
  const iterator = response.body[Symbol.asyncIterator]();
  for (let n = 0; n < stopAfter; n++) {
    const next = await iterator.next();
    if (next.done) return;
  }
  await iterator.return?.();
}

/** Starts an endless stream (the scripted upstream's `endless` model) on `signal` and reads its first chunk. */
async function startEndlessStream(gateway: ReturnType<typeof createGateway>, signal: AbortSignal): Promise<AsyncIterator<Uint8Array>> {
  const response = await gateway.handle({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: 'Bearer sk-a', 'content-type': 'application/json' },
    body: { model: 'endless', messages: [{ role: 'user', content: 'Hi' }], stream: true },
    signal,
  });
  expect(response.type).toBe('sse');
  const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  expect((await iterator.next()).done).toBe(false);
  return iterator;
}

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('a signal shared by many handle() calls', () => {
  it('holds no listener of a call once that call is over, on every path', async () => {
    process.on('warning', onWarning);
    const signals: AbortSignal[] = [];
    const gateway = createGateway({
      auth: { keys: ['sk-a'] },
      // No retries: the 500s would otherwise wait out a back-off each.
      routes: [{ match: '*', upstream: scriptedUpstream(signals), retries: 0 }],
      // A deadline is on by default; say so, since the listener belongs to it.
      requestTimeoutMs: 60_000,
    });
    const shared = new AbortController();
    const handle = (model: string, extra: Record<string, unknown> = {}) =>
      gateway.handle({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: 'Bearer sk-a', 'content-type': 'application/json' },
        body: { model, messages: [{ role: 'user', content: 'Hi' }], ...extra },
        signal: shared.signal,
      });
    const cases: Array<[string, () => Promise<GatewayResponse>, number?]> = [
      ['json', () => handle('json')],
      ['upstream error', () => handle('error')],
      ['not JSON (refused 502)', () => handle('html')],
      ['stream to its end', () => handle('stream', { stream: true })],
      ['stream the client stops reading', () => handle('endless', { stream: true }), 2],
      ['stream answered with HTML (refused 502)', () => handle('html', { stream: true })],
    ];
    for (const [name, call, stopAfter] of cases) {
      for (let i = 0; i < 15; i++) {
        const response = await call();
        await readAll(response, stopAfter);
        // The relay ends its stream on the next turn at the latest.
        await new Promise((resolve) => setImmediate(resolve));
        expect(getEventListeners(shared.signal, 'abort').length, `${name}, call ${i + 1}`).toBe(0);
      }
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    await gateway.close();
  });

  it('holds none after n > 1 fan-out and token counts (the embedded simulator behind the default routes)', async () => {
    process.on('warning', onWarning);
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, requestTimeoutMs: 60_000 });
    const shared = new AbortController();
    const headers = { authorization: 'Bearer sk-a', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
    const messages = [{ role: 'user', content: 'Hi' }];
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['n = 2, translated', '/v1/chat/completions', { model: 'vendora-sonnet-4-6', messages, n: 2, max_tokens: 16 }],
      ['n = 2, translated, streamed', '/v1/chat/completions', { model: 'vendora-sonnet-4-6', messages, n: 2, max_tokens: 16, stream: true }],
      ['count_tokens', '/v1/messages/count_tokens', { model: 'vendora-sonnet-4-6', messages }],
    ];
    for (const [name, url, body] of cases) {
      for (let i = 0; i < 12; i++) {
        const response = await gateway.handle({ method: 'POST', url, headers, body, signal: shared.signal });
        expect(response.status, name).toBe(200);
        await readAll(response);
        await new Promise((resolve) => setImmediate(resolve));
        expect(getEventListeners(shared.signal, 'abort').length, `${name}, call ${i + 1}`).toBe(0);
      }
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    await gateway.close();
  });

  it('holds none with limits on either (their stream backstop listens to the client too)', async () => {
    const signals: AbortSignal[] = [];
    const gateway = createGateway({
      auth: { keys: ['sk-a'] },
      routes: [{ match: '*', upstream: scriptedUpstream(signals), retries: 0 }],
      limits: { rules: [{ requests: { limit: 1000 }, concurrent: 5 }] },
    });
    const shared = new AbortController();
    const handle = (model: string, stream: boolean) =>
      gateway.handle({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: 'Bearer sk-a', 'content-type': 'application/json' },
        body: { model, messages: [{ role: 'user', content: 'Hi' }], ...(stream ? { stream: true } : {}) },
        signal: shared.signal,
      });
    for (const [model, stream, stopAfter] of [['json', false], ['error', false], ['stream', true], ['endless', true, 2]] as const) {
      for (let i = 0; i < 12; i++) {
        await readAll(await handle(model, stream), stopAfter);
        await new Promise((resolve) => setImmediate(resolve));
        expect(getEventListeners(shared.signal, 'abort').length, `${model}, call ${i + 1}`).toBe(0);
      }
    }
    await gateway.close();
  });

  it('listens to it once however many calls wait on it at the same time, and aborts them all', async () => {
    process.on('warning', onWarning);
    const signals: AbortSignal[] = [];
    // Limits too: their stream backstop is one more listener per streamed call.
    const gateway = createGateway({
      auth: { keys: ['sk-a'] },
      routes: [{ match: '*', upstream: scriptedUpstream(signals) }],
      requestTimeoutMs: 60_000,
      limits: { rules: [{ requests: { limit: 1000 }, concurrent: 100 }] },
    });
    const shared = new AbortController();
    const streams: Array<AsyncIterator<Uint8Array>> = [];
    for (let i = 0; i < 40; i++) streams.push(await startEndlessStream(gateway, shared.signal));
    // Node prints its warning from a later turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(shared.signal, 'abort').length).toBe(1);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);

    shared.abort(new Error('shutting down'));
    expect(signals).toHaveLength(40);
    for (const callSignal of signals) {
      expect(callSignal.aborted).toBe(true);
      expect((callSignal.reason as Error).message).toBe('shutting down');
    }
    for (const iterator of streams) expect((await iterator.next()).done).toBe(true);
    expect(getEventListeners(shared.signal, 'abort').length).toBe(0);
    await gateway.close();
  });

  it('still passes an abort of the shared signal on to a stream in progress (call.signal)', async () => {
    const signals: AbortSignal[] = [];
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: '*', upstream: scriptedUpstream(signals) }], requestTimeoutMs: 60_000 });
    const shared = new AbortController();
    const iterator = await startEndlessStream(gateway, shared.signal);
    const callSignal = signals.at(-1)!;
    expect(callSignal.aborted).toBe(false);
    shared.abort(new Error('shutting down'));
    expect(callSignal.aborted).toBe(true);
    expect((callSignal.reason as Error).message).toBe('shutting down');
    expect((await iterator.next()).done).toBe(true);
    await gateway.close();
  });
});
