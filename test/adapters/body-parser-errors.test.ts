/**
 * With the README's parser mounted before the gateway (`express.json()` on
 * Express 4 and 5, `@koa/bodyparser` on Koa 2 and 3), a malformed body, a
 * body over the parser's limit or a charset it refuses on a /v1 path is
 * answered in the caller's interface format by the error middleware, as the
 * gateway answers when it reads the body itself; a wrong content type is the
 * gateway's own 415. Other paths keep the app's handling. Express needs no
 * second mount (`expressGateway(...)` carries the error handler); without
 * `koaGatewayErrors`, Koa answers its own plain text.
 */
import type { RequestListener } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Anthropic from '@anthropic-ai/sdk';
import express5 from 'express';
import express4 from 'express4';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { createGateway, type Gateway } from 'modelgate';
import { expressGateway, expressGatewayErrors, keepRawBody } from 'modelgate/express';
import { koaGateway, koaGatewayErrors } from 'modelgate/koa';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../helpers/start-app.js';

const KEY = 'sk-parser-errors-0123456789';
/** The parsers' limit here: small, so that an oversized body is cheap to send. */
const LIMIT_BYTES = 2048;

type Setup = (gateway: Gateway, withErrors: boolean) => RequestListener;

const SETUPS: Record<string, Setup> = {
  'express 5': (gateway, withErrors) => expressApp(express5, gateway, withErrors),
  'express 4': (gateway, withErrors) => expressApp(express4, gateway, withErrors),
  'koa 3': (gateway, withErrors) => koaApp(Koa3, gateway, withErrors),
  'koa 2': (gateway, withErrors) => koaApp(Koa2, gateway, withErrors),
};

function expressApp(express: typeof express5, gateway: Gateway, withErrors: boolean): RequestListener {
  const app = express();
  const mg = expressGateway(gateway);
  app.use(express.json({ limit: LIMIT_BYTES, verify: keepRawBody }));
  app.post('/app/echo', (req, res) => {
    res.json(req.body);
  });
  app.use(mg);
  if (withErrors) app.use(expressGatewayErrors(mg));
  return app as unknown as RequestListener;
}

function koaApp(Koa: typeof Koa3, gateway: Gateway, withErrors: boolean): RequestListener {
  const app = new Koa();
  const mg = koaGateway(gateway);
  if (withErrors) app.use(koaGatewayErrors(mg));
  app.use(bodyParser({ jsonLimit: LIMIT_BYTES }));
  app.use(async (ctx, next) => {
    if (ctx.path !== '/app/echo') return next();
    ctx.body = ctx.request.body;
  });
  app.use(mg);
  app.silent = true;
  return app.callback();
}

const oversized = () => JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'x'.repeat(LIMIT_BYTES * 2) }] });

interface Answer {
  status: number;
  contentType: string;
  text: string;
  requestId: string | null;
}

async function post(url: string, path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-api-key': KEY, 'anthropic-version': '2023-06-01', ...headers },
    body,
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text(), requestId: response.headers.get('request-id') };
}

describe.each(Object.keys(SETUPS))('%s with its body parser before the gateway', (name) => {
  const errors: { status: number; code: string }[] = [];
  let gateway: Gateway;
  let app: { url: string; close(): Promise<void> };
  let bare: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    gateway = createGateway({ auth: { keys: [KEY] }, onError: ({ error }) => errors.push({ status: error.status, code: error.code }) });
    app = await listen(SETUPS[name]!(gateway, true));
    bare = await listen(SETUPS[name]!(gateway, false));
  });
  afterAll(async () => {
    await app.close();
    await bare.close();
    await gateway.close();
  });

  it('malformed JSON: 400 in the chat format on the chat path, in the vendor format on the messages paths, through the gateway', async () => {
    errors.length = 0;
    const chat = await post(app.url, '/v1/chat/completions', '{"model": "gpt-4o",');
    expect(chat.status).toBe(400);
    expect(chat.contentType).toMatch(/^application\/json/);
    const chatError = JSON.parse(chat.text) as { error: { message: string; type: string; param: unknown; code: unknown } };
    expect(chatError.error.type).toBe('invalid_request_error');
    expect(chatError.error.message).toMatch(/^Request body is not valid JSON: .+\.$/);
    expect(chat.requestId).toMatch(/^req_/);
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const messages = await post(app.url, path, '{"model": ');
      expect(messages.status, path).toBe(400);
      expect(JSON.parse(messages.text), path).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/^Request body is not valid JSON/) } });
    }
    expect(errors).toEqual([
      { status: 400, code: 'INVALID_JSON' },
      { status: 400, code: 'INVALID_JSON' },
      { status: 400, code: 'INVALID_JSON' },
    ]);
  });

  it('a body over the parser’s limit: 413 naming the limit, also as the official clients see it', async () => {
    const chat = await post(app.url, '/v1/chat/completions', oversized());
    expect(chat.status).toBe(413);
    expect(JSON.parse(chat.text)).toEqual({
      error: { message: `Request body is larger than the ${LIMIT_BYTES}-byte limit of this gateway.`, type: 'invalid_request_error', param: null, code: 'request_too_large' },
    });
    const openai = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const chatFailure = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(LIMIT_BYTES * 2) }] }).catch((error: unknown) => error);
    expect(chatFailure).toBeInstanceOf(OpenAI.APIError);
    expect((chatFailure as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((chatFailure as InstanceType<typeof OpenAI.APIError>).code).toBe('request_too_large');
    const anthropic = new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 0 });
    const messagesFailure = await anthropic.messages
      .create({ model: 'vendora-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'x'.repeat(LIMIT_BYTES * 2) }] })
      .catch((error: unknown) => error);
    expect(messagesFailure).toBeInstanceOf(Anthropic.APIError);
    expect((messagesFailure as InstanceType<typeof Anthropic.APIError>).status).toBe(413);
    expect((messagesFailure as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
  });

  it('a wrong content type is the gateway’s own 415, in the caller’s format', async () => {
    const chat = await post(app.url, '/v1/chat/completions', 'hello', { 'content-type': 'text/plain' });
    expect(chat.status).toBe(415);
    expect(JSON.parse(chat.text)).toMatchObject({ error: { message: 'Content-Type must be application/json, not text/plain: send the request body as JSON.' } });
    const messages = await post(app.url, '/v1/messages', 'a=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(messages.status).toBe(415);
    expect(JSON.parse(messages.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('paths outside /v1 keep the app’s own handling', async () => {
    const own = await post(app.url, '/app/echo', '{"a":');
    expect(own.status).toBe(400);
    expect(own.text).not.toMatch(/"error"\s*:\s*\{/);
    expect(own.requestId).toBeNull();
    expect(JSON.parse((await post(app.url, '/app/echo', '{"a":1}')).text)).toEqual({ a: 1 });
  });

  it('without the error middleware: Express answers the same through the gateway alone; Koa answers its own plain text', async () => {
    const chat = await post(bare.url, '/v1/chat/completions', '{"model": "gpt-4o",');
    expect(chat.status).toBe(400);
    if (name.startsWith('express')) {
      // `app.use(mg)` mounts the gateway's error handler with it.
      expect(JSON.parse(chat.text)).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringMatching(/^Request body is not valid JSON/) } });
      expect(chat.requestId).toMatch(/^req_/);
    } else {
      // Koa's parser runs before the gateway: only `koaGatewayErrors`, mounted before it, sees its error.
      expect(chat.requestId).toBeNull();
      expect(() => JSON.parse(chat.text)).toThrow();
      expect(chat.text).not.toMatch(/\n\s+at |<html/i);
    }
  });
});

describe.each([
  ['express 5', express5],
  ['express 4', express4],
] as const)('%s: a charset express.json() refuses', (_name, express) => {
  it('is a 415 in the caller’s format', async () => {
    const app = express();
    const mg = expressGateway({ auth: { keys: [KEY] } });
    app.use(express.json());
    app.use(mg);
    app.use(expressGatewayErrors(mg));
    const running = await listen(app as unknown as RequestListener);
    try {
      const answer = await post(running.url, '/v1/messages', '{}', { 'content-type': 'application/json; charset=latin1' });
      expect(answer.status).toBe(415);
      expect(JSON.parse(answer.text)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'Request body charset "latin1" is not supported: send the JSON body as UTF-8.' } });
    } finally {
      await running.close();
      await mg.gateway.close();
    }
  });
});

describe('without a gateway given', () => {
  it('the error middleware still answers in the caller’s format, with a request id', async () => {
    const app = express5();
    app.use(express5.json());
    app.use(expressGateway({ auth: { keys: [KEY] } }));
    app.use(expressGatewayErrors());
    const running = await listen(app as unknown as RequestListener);
    try {
      const answer = await post(running.url, '/v1/messages', '{"model":');
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(answer.requestId).toMatch(/^req_/);
    } finally {
      await running.close();
    }
  });
});
