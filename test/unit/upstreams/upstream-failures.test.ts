import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { type Socket, createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayError, isGatewayError } from '../../../src/errors.js';
import { renderError } from '../../../src/render-error.js';
import { openAICompatible } from '../../../src/upstreams/chat-upstream.js';
import { messagesUpstream } from '../../../src/upstreams/messages-upstream.js';
import { readBody } from '../../../src/upstreams/read-body.js';
import type { Upstream, UpstreamCall } from '../../../src/upstreams/upstream.js';
import { type StubUpstream, startStubUpstream } from '../../helpers/stub-upstream.js';

const KEY = 'sk-secret-gateway-key';
let stub: StubUpstream | undefined;
let upstream: Upstream | undefined;
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  await upstream?.close?.();
  await stub?.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
  stub = undefined;
  upstream = undefined;
});

const call = (over: Partial<UpstreamCall> = {}): UpstreamCall => ({
  operation: 'messages',
  body: { model: 'm' },
  headers: {},
  signal: new AbortController().signal,
  ...over,
});

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function expectNoSecrets(error: GatewayError, url: string): void {
  const { port } = new URL(url);
  for (const text of [error.message, JSON.stringify(renderError(error, 'chat').body), JSON.stringify(renderError(error, 'messages').body)]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(port);
  }
}

async function freePort(): Promise<string> {
  const server = createHttpServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return `http://127.0.0.1:${port}`;
}

describe('upstream connection failures', () => {
  it('maps connection refused to 502 UPSTREAM_UNAVAILABLE naming the upstream', async () => {
    const url = await freePort();
    upstream = messagesUpstream({ baseURL: url, apiKey: KEY, name: 'vendor' });
    const error = await failure(upstream.send(call()));
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 502, message: 'Upstream "vendor" refused the connection.' });
    expect(renderError(error, 'messages').body).toEqual({ type: 'error', error: { type: 'api_error', message: error.message } });
    expectNoSecrets(error, url);
  });

  it('maps a reset connection to 502', async () => {
    stub = await startStubUpstream([{ kind: 'reset' }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: KEY, name: 'oai' });
    const error = await failure(upstream.send(call({ operation: 'chat.completions' })));
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 502, message: 'Upstream "oai" closed the connection unexpectedly.' });
    expectNoSecrets(error, stub.url);
  });

  it('maps a connect (TLS handshake) time-out to 504', async () => {
    const sockets = new Set<Socket>();
    const server = createTcpServer((socket) => sockets.add(socket));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    });
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    upstream = messagesUpstream({ baseURL: url, apiKey: KEY, name: 'slowtls', timeouts: { connectMs: 150 } });
    const started = performance.now();
    const error = await failure(upstream.send(call()));
    expect(error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', status: 504, message: 'Upstream "slowtls" did not accept a connection within 150 ms.' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(renderError(error, 'messages').body).toMatchObject({ error: { type: 'timeout_error' } });
    expectNoSecrets(error, url);
  });

  it('maps a first-byte time-out to 504 and closes the upstream connection', async () => {
    stub = await startStubUpstream([{ kind: 'hang' }]);
    upstream = messagesUpstream({ baseURL: stub.url, apiKey: KEY, name: 'v', timeouts: { firstByteMs: 150 } });
    const started = performance.now();
    const error = await failure(upstream.send(call()));
    expect(error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', status: 504, message: 'Upstream "v" did not start responding within 150 ms.' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await stub.closed(0);
    expectNoSecrets(error, stub.url);
  });

  it('maps an idle time-out while reading the body to 504', async () => {
    stub = await startStubUpstream([{ kind: 'sse', events: [{ event: 'message_start', data: '{}' }], then: 'hang' }]);
    upstream = messagesUpstream({ baseURL: stub.url, apiKey: KEY, name: 'v', timeouts: { idleMs: 150 } });
    const response = await upstream.send(call({ stream: true }));
    expect(response.status).toBe(200);
    const error = await failure(readBody(response.body));
    expect(error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', status: 504, message: 'Upstream "v" sent nothing for 150 ms.' });
  });

  it('maps a connection cut mid-body to 502', async () => {
    stub = await startStubUpstream([{ kind: 'sse', events: [{ data: '{}' }], then: 'cut' }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/v1`, name: 'oai' });
    const response = await upstream.send(call({ operation: 'chat.completions', stream: true }));
    const error = await failure(readBody(response.body));
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: 'Upstream "oai" closed the connection in the middle of its response.' });
  });
});

describe('upstream aborts and pools', () => {
  it('aborting call.signal mid-body closes the upstream socket promptly (the stub would hang for good)', async () => {
    stub = await startStubUpstream([{ kind: 'sse', events: [{ event: 'message_start', data: '{}' }], then: 'hang' }]);
    upstream = messagesUpstream({ baseURL: stub.url, apiKey: KEY });
    const controller = new AbortController();
    const response = await upstream.send(call({ stream: true, signal: controller.signal }));
    const iterator = response.body[Symbol.asyncIterator]();
    await iterator.next();
    const abortedAt = performance.now();
    controller.abort();
    const closedAt = await stub.closed(0);
    expect(closedAt - abortedAt).toBeLessThan(2000);
    await expect(iterator.next()).rejects.toBeDefined();
  });

  it('aborting before the response head rejects at once and closes the socket', async () => {
    stub = await startStubUpstream([{ kind: 'hang' }]);
    upstream = messagesUpstream({ baseURL: stub.url });
    const controller = new AbortController();
    const sending = failure(upstream.send(call({ signal: controller.signal })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const abortedAt = performance.now();
    controller.abort();
    const error = await sending;
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(/cancelled/);
    expect((await stub.closed(0)) - abortedAt).toBeLessThan(2000);
  });

  it('close() releases pooled keep-alive connections', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: {} }]);
    const target = messagesUpstream({ baseURL: stub.url });
    await readBody((await target.send(call())).body);
    expect(stub.openConnections).toBe(1);
    await target.close?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stub.openConnections).toBe(0);
  });
});
