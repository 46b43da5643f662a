/**
 * `readRawBody` (node:http, Express, Koa): whatever way the read ends (the
 * whole body, over the limit, the body time-out, the client cut), it leaves
 * no listener on the request. The request lives as long as its response,
 * for minutes with a stream, and a listener left on it keeps the body's
 * chunks alive with it.
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readRawBody } from '../../adapters/node-request.js';

type Outcome = { body?: string; error?: { status?: number }; listeners: Record<string, number> };

const EVENTS = ['data', 'end', 'error'] as const;
const counts = (req: IncomingMessage) => Object.fromEntries(EVENTS.map((name) => [name, req.listenerCount(name)]));

/** Serves one request: reads its body with `readRawBody(limit, timeoutMs)`, reports the outcome and the listeners left. */
async function readOnce(send: (port: number) => void, limit: number, timeoutMs: number): Promise<{ outcome: Outcome; before: Record<string, number> }> {
  let before: Record<string, number> = {};
  let report: (outcome: Outcome) => void = () => {};
  const reported = new Promise<Outcome>((resolve) => {
    report = resolve;
  });
  const server = createServer((req, res) => {
    before = counts(req);
    readRawBody(req, limit, timeoutMs).then(
      (bytes) => {
        report({ body: Buffer.from(bytes).toString(), listeners: counts(req) });
        res.end();
      },
      (error: { status?: number }) => {
        report({ error: { status: error.status }, listeners: counts(req) });
        res.destroy();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    send((server.address() as AddressInfo).port);
    return { outcome: await reported, before };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function post(port: number, chunks: string[], opts: { end?: boolean; length?: number } = {}) {
  const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: opts.length === undefined ? {} : { 'content-length': String(opts.length) } });
  req.on('error', () => {});
  for (const chunk of chunks) req.write(chunk);
  if (opts.end !== false) req.end();
  return req;
}

describe('readRawBody leaves no listener on the request', () => {
  it('after reading the whole body', async () => {
    const { outcome, before } = await readOnce((port) => post(port, ['{"a":', '1}']), 1024, 5000);
    expect(outcome.body).toBe('{"a":1}');
    expect(outcome.listeners).toEqual(before);
  });

  it('after a body over the limit (413)', async () => {
    const { outcome, before } = await readOnce((port) => post(port, ['x'.repeat(600), 'y'.repeat(600)]), 1000, 5000);
    expect(outcome.error?.status).toBe(413);
    expect(outcome.listeners).toEqual(before);
  });

  it('after the body time-out (408)', async () => {
    const { outcome, before } = await readOnce((port) => post(port, ['{"a":'], { end: false, length: 20 }), 1024, 100);
    expect(outcome.error?.status).toBe(408);
    expect(outcome.listeners).toEqual(before);
  });

  it('after the client cut the body', async () => {
    const { outcome, before } = await readOnce((port) => {
      const req = post(port, ['{"a":'], { end: false, length: 20 });
      setTimeout(() => req.destroy(), 50);
    }, 1024, 5000);
    expect(outcome.error?.status).toBe(400);
    expect(outcome.listeners).toEqual(before);
  });
});
