/**
 * The gateway's own body reading has a time-out: a client that trickles its
 * body is answered 408 in its interface's format and its connection closed,
 * on every mount where the gateway reads the body itself; a body that
 * arrives in time is served.
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_GONE, type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-slow-body-test';
const BODY_TIMEOUT_MS = 400;
const MOUNTS: readonly Mount[] = ['node', 'express5', 'express4', 'koa3', 'koa2', 'fastify5', 'fastify4', 'hono'];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  elapsedMs: number;
  /** The server closed the connection after its answer. */
  closed: boolean;
}

/** Sends the head of a request announcing all of `body`, then one byte of it every `everyMs` until answered (0: all of it at once, in two pieces). */
function trickle(url: string, path: string, body: string, everyMs: number): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    if (path.endsWith('/messages')) {
      headers['x-api-key'] = KEY;
      headers['anthropic-version'] = '2023-06-01';
    } else headers.authorization = `Bearer ${KEY}`;
    const req = request(`${url}${path}`, { method: 'POST', headers, agent: false });
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    if (everyMs > 0) {
      timer = setInterval(() => {
        if (sent < body.length) req.write(body[sent++]!);
      }, everyMs);
    } else {
      // In time: two pieces, one event-loop turn apart.
      req.write(body.slice(0, 10));
      setImmediate(() => req.end(body.slice(10)));
    }
    req.on('response', (res) => {
      clearInterval(timer);
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const answer = { status: res.statusCode ?? 0, headers: res.headers, body: text, elapsedMs: performance.now() - started, closed: false };
        // The socket closes right after a `connection: close` answer.
        if (res.socket.destroyed) resolve({ ...answer, closed: true });
        else res.socket.once('close', () => resolve({ ...answer, closed: true }));
      });
    });
    req.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    req.flushHeaders();
  });
}

const CHAT = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
const MESSAGES = JSON.stringify({ model: 'vendora-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] });

describe.each(MOUNTS)('a trickled request body on %s', (mount) => {
  let app: StartedApp;
  const errors: number[] = [];
  beforeAll(async () => {
    app = await startApp(mount, { auth: { keys: [KEY] }, bodyTimeoutMs: BODY_TIMEOUT_MS, onError: ({ error }) => errors.push(error.status) });
  });
  afterAll(() => app.close());

  it('chat completions: 408 in the chat error format, connection closed', async () => {
    const answer = await trickle(app.url, '/v1/chat/completions', CHAT, 50);
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    const body = JSON.parse(answer.body) as { error: { type: string; code: string; message: string } };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_timeout' });
    expect(body.error.message).toContain(`${BODY_TIMEOUT_MS} ms`);
    expect(answer.closed).toBe(true);
    // Order of magnitude: cut near the time-out, not after the whole trickle (CHAT.length × 50 ms).
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
    expect(answer.elapsedMs).toBeLessThan(BODY_TIMEOUT_MS * 10);
  });

  it('messages: 408 in the messages error format', async () => {
    const answer = await trickle(app.url, '/v1/messages', MESSAGES, 50);
    expect(answer.status).toBe(408);
    const body = JSON.parse(answer.body) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(answer.closed).toBe(true);
  });

  it('a client that leaves halfway through its body is a 4xx for onError, never a 500', async () => {
    errors.length = 0;
    const req = request(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': String(CHAT.length) },
      agent: false,
    });
    req.on('error', () => {});
    req.write(CHAT.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    req.destroy();
    const deadline = Date.now() + BODY_TIMEOUT_MS * 10;
    while (errors.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors.length).toBeGreaterThan(0);
    for (const status of errors) expect(status).toBeLessThan(500);
    // Koa also reports the cut body to the app (a parse error at the socket's end); nothing else may be reported.
    expect(app.appErrors.filter((error) => !CLIENT_GONE.has(error.code))).toEqual([]);
  });

  it('a body that arrives within the time-out (in pieces) is served', async () => {
    const answer = await trickle(app.url, '/v1/chat/completions', CHAT, 0);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { object: string }).object).toBe('chat.completion');
  });
});
