/**
 * Upstream wrappers and the call's `signal`: the README's upstream contract is
 * `{ name, format, send(call) }`, so a user may wrap a built-in upstream and
 * hand it a signal of their own, by spreading the call or by assigning
 * `call.signal`. The built-in upstream must obey that signal (the gateway's
 * light abort source must not travel with a copy, nor make `signal` read-only).
 * The same holds for the node:http adapter's request object.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, openAICompatible, type Upstream, type UpstreamCall } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGatewayRequest } from '../../../adapters/node-request.js';
import { abortSourceOf, signalOf } from '../../../src/signals/abort-source.js';

/** The signal the gateway obeys for `target` (a caller's own signal is listened to through its fan-out). */
const obeyedSignal = (target: { readonly signal: AbortSignal }): AbortSignal => signalOf(abortSourceOf(target));

const KEY = 'sk-wrapper-test-0123456789';

describe('a wrapper around a built-in upstream with a signal of its own', () => {
  let silent: Server;
  let baseURL: string;

  beforeAll(async () => {
    // Accepts and never answers: only a signal ends the call.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  const wrappers: Record<string, (inner: Upstream) => Upstream['send']> = {
    'spreads the call': (inner) => (call) => inner.send({ ...call, signal: AbortSignal.any([call.signal, AbortSignal.timeout(200)]) }),
    'assigns call.signal': (inner) => (call: UpstreamCall) => {
      call.signal = AbortSignal.any([call.signal, AbortSignal.timeout(200)]);
      return inner.send(call);
    },
  };

  it.each(Object.keys(wrappers))('that %s: its 200 ms abort ends the call (502), long before the 10 s deadline', async (name) => {
    const inner = openAICompatible({ baseURL, apiKey: 'upstream-key' });
    const wrapped: Upstream = { name: 'wrapped', format: 'chat', send: wrappers[name]!(inner) };
    const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream: wrapped, retries: 0 }], requestTimeoutMs: 10_000 });
    const started = Date.now();
    const response = await gateway.handle({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      signal: new AbortController().signal,
    });
    expect(response.status).toBe(502);
    expect(response.type === 'json' && response.body).toMatchObject({ error: { type: 'server_error' } });
    // Order of magnitude: the wrapper's 200 ms, not the gateway's 10 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    await gateway.close();
  });
});

describe("the node:http adapter's request signal", () => {
  it('can be assigned, and a copy with its own signal is listened to on that signal', async () => {
    const seen: Record<string, unknown> = {};
    const server = createServer((req, res) => {
      const request = toGatewayRequest(req, res);
      const mine = AbortSignal.abort('mine');
      const copy = { ...request, signal: mine };
      seen.copyListensOnItsSignal = obeyedSignal(copy) === mine;
      const other = new AbortController().signal;
      request.signal = other;
      seen.assignedIsRead = request.signal === other;
      seen.assignedIsListened = obeyedSignal(request) === other;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', reject).end();
    });
    await new Promise((resolve) => server.close(resolve));
    expect(seen).toEqual({ copyListensOnItsSignal: true, assignedIsRead: true, assignedIsListened: true });
  });
});
