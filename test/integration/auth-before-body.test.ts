/**
 * A caller without a valid key costs no body read: its request is answered
 * 401 from the headers, while the client is still sending a large body, and
 * the connection closes instead of taking the rest. Unknown paths are
 * answered the same way (404 / 405). Through real HTTP on every mount that
 * reads the body itself.
 */
import { request as httpRequest, type IncomingMessage, type RequestListener } from 'node:http';
import express from 'express';
import Koa from 'koa';
import { expressGateway } from 'modelgate/express';
import { koaGateway } from 'modelgate/koa';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY } from '../helpers/e2e-fixtures.js';
import { listen, type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

/** Announced, never sent in full: the gateway must answer from the headers. */
const ANNOUNCED = 20_000_000;
const SENT = 1024 * 1024;

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  ms: number;
  /** Bytes the client had written when the answer's head arrived. */
  written: number;
}

/** POSTs a JSON body announced as 20 MB, sends only its first megabyte and keeps the connection open; resolves with the answer. */
function postLargeBody(url: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(ANNOUNCED), ...headers },
    });
    let written = 0;
    req.on('response', (res) => {
      const at = { status: res.statusCode ?? 0, headers: res.headers, ms: Date.now() - startedAt, written };
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ ...at, body: Buffer.concat(chunks).toString() });
        req.destroy();
      });
      res.on('error', reject);
    });
    // The server closing the connection is expected once it answered.
    req.on('error', (error) => {
      if (!req.destroyed || written === 0) reject(error);
    });
    const start = Buffer.from('{"model":"gpt-4o","messages":[{"role":"user","content":"');
    req.write(start);
    written += start.byteLength;
    const filler = Buffer.alloc(64 * 1024, 'a');
    while (written + filler.byteLength <= SENT) {
      req.write(filler);
      written += filler.byteLength;
    }
    // Never ended: the rest of the 20 MB never comes.
  });
}

const MOUNTS: Mount[] = ['node', 'express5', 'express4', 'koa3', 'fastify5', 'hono'];

describe.each(MOUNTS)('a caller without a valid key costs no body read on %s', (mount) => {
  let app: StartedApp | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('answers 401 from the headers while the body is still on its way, and closes the connection', async () => {
    app = await startApp(mount, { auth: { keys: [KEY] } });
    const senders: Array<Record<string, string>> = [{}, { authorization: 'Bearer sk-not-a-key-of-this-gateway' }];
    for (const headers of senders) {
      const answer = await postLargeBody(app.url, '/v1/chat/completions', headers);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'invalid_api_key' } });
      // The client had sent at most its first megabyte: nothing waited for the other 19.
      expect(answer.written).toBeLessThanOrEqual(SENT);
      expect(answer.ms).toBeLessThan(5000);
      expect(answer.headers.connection).toBe('close');
    }
    expect(app.gateway.load()).toEqual({ inFlight: 0, queued: 0 });
  });

  it('answers an unknown path without reading its body', async () => {
    app = await startApp(mount, { auth: { keys: [KEY] } });
    const answer = await postLargeBody(app.url, '/v1/no-such-endpoint', { authorization: `Bearer ${KEY}` });
    expect(answer.status).toBe(404);
    expect(answer.written).toBeLessThanOrEqual(SENT);
    expect(answer.headers.connection).toBe('close');
  });

  it('still reads the body of a caller whose key verified (a 413 past the limit, in the caller’s format)', async () => {
    app = await startApp(mount, { auth: { keys: [KEY] }, maxBodyBytes: 1024 * 1024 });
    const answer = await postLargeBody(app.url, '/v1/chat/completions', { authorization: `Bearer ${KEY}` });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: expect.stringContaining('1048576-byte limit') } });
    // The rest of the announced 20 MB is not read to keep the connection.
    expect(answer.headers.connection).toBe('close');
  });

  it('refuses a body that is not JSON from its content type, before reading it', async () => {
    app = await startApp(mount, { auth: { keys: [KEY] } });
    const answer = await postLargeBody(app.url, '/v1/chat/completions', { authorization: `Bearer ${KEY}`, 'content-type': 'text/plain' });
    expect(answer.status).toBe(415);
    expect(answer.written).toBeLessThanOrEqual(SENT);
    expect(answer.headers.connection).toBe('close');
  });
});

describe('composed steps read no body before the caller is authenticated', () => {
  let running: Awaited<ReturnType<typeof listen>> | undefined;

  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('Express: authenticate → validate → dispatch answers 401 while the body is on its way; a parser the app runs after authenticate feeds the later steps', async () => {
    // The embedded simulator answers.
    const mg = expressGateway({ auth: { keys: [KEY] } });
    const app = express();
    app.post('/v1/chat/completions', mg.authenticate, mg.validate, mg.enforceRules, mg.dispatch);
    // The app's own parser between the steps: it parses only what an authenticated caller sent.
    app.post('/v1/messages', mg.authenticate, express.json(), mg.validate, mg.dispatch);
    running = await listen(app as unknown as RequestListener);

    const answer = await postLargeBody(running.url, '/v1/chat/completions', {});
    expect(answer.status).toBe(401);
    expect(answer.written).toBeLessThanOrEqual(SENT);
    expect(answer.headers.connection).toBe('close');

    const served = await fetch(`${running.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'vendora-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(served.status).toBe(200);
    expect(((await served.json()) as { type: string }).type).toBe('message');
  });

  it('Koa: authenticate → validate → dispatch answers 401 while the body is on its way', async () => {
    const mg = koaGateway({ auth: { keys: [KEY] } });
    const app = new Koa();
    app.silent = true;
    app.use(mg.steps('chat.completions').authenticate);
    app.use(mg.validate);
    app.use(mg.dispatch);
    running = await listen(app.callback());
    const answer = await postLargeBody(running.url, '/v1/chat/completions', {});
    expect(answer.status).toBe(401);
    expect(answer.written).toBeLessThanOrEqual(SENT);
    expect(answer.headers.connection).toBe('close');
  });
});
