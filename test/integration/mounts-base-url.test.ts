/**
 * A team's first mount, as it is usually written: Express 4 and 5 with
 * `express.json()` before the gateway, Koa 2 and 3, Fastify 5 and 4, each
 * with routes of its own. A client whose base URL lacks /v1 gets the
 * gateway's 404 in its own format with the base-URL hint (the opt-in helpers:
 * `expressBaseUrlHints`, `koaBaseUrlHints`, the Fastify plugin's
 * `baseUrlHints`); a body `express.json()` rejects on a gateway path is
 * answered in the caller's format by `app.use(mg)` alone, with no stack or
 * file path; the app's own routes keep the framework's behaviour.
 */
import type { RequestListener } from 'node:http';
import { createServer } from 'node:http';
import express5 from 'express';
import express4 from 'express4';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { createGateway, type Gateway } from 'modelgate';
import { expressBaseUrlHints, expressGateway } from 'modelgate/express';
import { fastifyGateway } from 'modelgate/fastify';
import { koaBaseUrlHints, koaGateway } from 'modelgate/koa';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, KEY } from '../helpers/e2e-fixtures.js';
import { listen } from '../helpers/start-app.js';

/** The hint the requirement asks for: the base URL needs /v1 at its end. */
const ADD_V1 = "Add /v1 to the end of the client's base URL";
/** What Express's default error page holds in development: a stack line and absolute file paths. */
const STACK_OR_PATH = /\n\s+at |node_modules|\/work\/|<html|<!DOCTYPE/i;

type Build = (gateway: Gateway) => Promise<RequestListener>;

/** The app's own routes: `GET /health`, and `GET /models` (a page of its own at a path the hints also know). */
const OWN_MODELS = { own: 'models page' };

function expressApp(express: typeof express5): Build {
  return async (gateway) => {
    const app = express();
    const mg = expressGateway(gateway);
    app.use(express.json({ limit: 4096 }));
    app.get('/health', (_req, res) => {
      res.json({ status: 'ok' });
    });
    app.get('/models', (_req, res) => {
      res.json(OWN_MODELS);
    });
    app.post('/app/echo', (req, res) => {
      res.json(req.body);
    });
    app.use(mg);
    app.use(expressBaseUrlHints(mg));
    return app as unknown as RequestListener;
  };
}

function koaApp(Koa: typeof Koa3): Build {
  return async (gateway) => {
    const app = new Koa();
    const mg = koaGateway(gateway);
    app.use(koaBaseUrlHints(mg));
    app.use(async (ctx, next) => {
      if (ctx.method === 'GET' && ctx.path === '/health') ctx.body = { status: 'ok' };
      else if (ctx.method === 'GET' && ctx.path === '/models') ctx.body = OWN_MODELS;
      else await next();
    });
    app.use(mg);
    app.silent = true;
    return app.callback();
  };
}

function fastifyApp(fastify: typeof fastify5): Build {
  return async (gateway) => {
    let listener: RequestListener | undefined;
    const app = fastify({
      serverFactory: (handler) => {
        listener = handler;
        return createServer(handler);
      },
    });
    app.get('/health', async () => ({ status: 'ok' }));
    await app.register(fastifyGateway, { gateway, baseUrlHints: true });
    await app.ready();
    return listener!;
  };
}

const APPS: Record<string, { build: Build; ownModelsRoute: boolean }> = {
  'express 5': { build: expressApp(express5), ownModelsRoute: true },
  'express 4': { build: expressApp(express4), ownModelsRoute: true },
  'koa 3': { build: koaApp(Koa3), ownModelsRoute: true },
  'koa 2': { build: koaApp(Koa2), ownModelsRoute: true },
  // Fastify refuses two routes at one method and path: the app's own /models would collide with the hints'.
  'fastify 5': { build: fastifyApp(fastify5), ownModelsRoute: false },
  'fastify 4': { build: fastifyApp(fastify4), ownModelsRoute: false },
};

interface Answer {
  status: number;
  contentType: string;
  text: string;
  requestId: string | null;
}

async function call(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text(), requestId: response.headers.get('request-id') };
}

const chatHeaders = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const vendorHeaders = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
const chatBody = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello.' }] });

describe.each(Object.keys(APPS))('%s: the gateway paths without /v1, with the base-URL hints mounted', (name) => {
  const { build, ownModelsRoute } = APPS[name]!;
  const errors: string[] = [];
  let gateway: Gateway;
  let app: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    gateway = createGateway({ auth: { keys: [KEY] }, onError: ({ error }) => errors.push(error.code) });
    app = await listen(await build(gateway));
  });
  afterAll(async () => {
    await app.close();
    await gateway.close();
  });

  it('POST /chat/completions: a JSON 404 in the chat format with the hint, through the gateway', async () => {
    errors.length = 0;
    const answer = await call(`${app.url}/chat/completions`, 'POST', chatHeaders, chatBody);
    expect(answer.status).toBe(404);
    expect(answer.contentType).toMatch(/^application\/json/);
    const body = JSON.parse(answer.text) as { error: { message: string; type: string; code: string } };
    expect(body.error.code).toBe('unknown_url');
    expect(body.error.message).toContain('/v1/chat/completions');
    expect(body.error.message).toContain(ADD_V1);
    expect(answer.requestId).toMatch(/^req_/);
    expect(errors).toEqual(['NOT_FOUND']);
  });

  it('POST /responses and GET /models/{id}: the chat format; POST /messages: the vendor format', async () => {
    const responses = JSON.parse((await call(`${app.url}/responses`, 'POST', chatHeaders, '{}')).text) as { error: { message: string } };
    expect(responses.error.message).toContain(ADD_V1);
    const model = await call(`${app.url}/models/gpt-4o`, 'GET', { authorization: `Bearer ${KEY}` });
    expect(model.status).toBe(404);
    expect((JSON.parse(model.text) as { error: { message: string } }).error.message).toContain(ADD_V1);
    const messages = await call(`${app.url}/messages`, 'POST', vendorHeaders, '{}');
    expect(messages.status).toBe(404);
    expect(JSON.parse(messages.text)).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('/v1/messages') } });
  });

  it('the official openai client with a base URL lacking /v1: NotFoundError whose message says to add /v1', async () => {
    const client = new OpenAI({ baseURL: app.url, apiKey: KEY, maxRetries: 0 });
    const chat = await failure(() => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello.' }] }));
    expect(chat).toBeInstanceOf(OpenAI.NotFoundError);
    expect((chat as Error).message).toContain(ADD_V1);
    const responses = await failure(() => client.responses.create({ model: 'gpt-4o', input: 'Hello.' }));
    expect(responses).toBeInstanceOf(OpenAI.NotFoundError);
    expect((responses as Error).message).toContain(ADD_V1);
  });

  it("the app's own routes keep the framework's behaviour", async () => {
    const health = await call(`${app.url}/health`, 'GET');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok' });
    if (ownModelsRoute) expect(JSON.parse((await call(`${app.url}/models`, 'GET')).text)).toEqual(OWN_MODELS);
    // Paths that are no endpoint of the gateway: the framework's own 404, not the gateway's.
    for (const path of ['/nowhere', '/chat', '/files', '/v2/chat/completions']) {
      const answer = await call(`${app.url}${path}`, 'POST', chatHeaders, chatBody);
      expect(answer.status, path).toBe(404);
      expect(answer.requestId, path).toBeNull();
      expect(answer.text, path).not.toContain(ADD_V1);
    }
  });
});

describe.each([
  ['express 5', express5],
  ['express 4', express4],
] as const)('%s: express.json() before the gateway, and no other modelgate mount', (_name, express) => {
  const errors: { code: string; cause: unknown }[] = [];
  let app: Awaited<ReturnType<typeof listen>>;
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = createGateway({ auth: { keys: [KEY] }, onError: ({ error }) => errors.push({ code: error.code, cause: error.cause }) });
    const server = express();
    server.use(express.json({ limit: 2048 }));
    server.post('/app/echo', (req, res) => {
      res.json(req.body);
    });
    // An app middleware that fails on one gateway path (a database behind its own auth, say).
    server.use('/v1/models', (_req, _res, next) => next(new Error('connect ECONNREFUSED 10.0.0.7:5432 at /srv/app/db.js')));
    server.use(expressGateway(gateway));
    app = await listen(server as unknown as RequestListener);
  });
  afterAll(async () => {
    await app.close();
    await gateway.close();
  });

  it('malformed JSON on /v1/chat/completions: 400 in the chat format, no stack or path', async () => {
    errors.length = 0;
    const answer = await call(`${app.url}/v1/chat/completions`, 'POST', chatHeaders, '{"model": "gpt-4o",');
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.text).not.toMatch(STACK_OR_PATH);
    const body = JSON.parse(answer.text) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^Request body is not valid JSON/);
    expect(answer.requestId).toMatch(/^req_/);
    expect(errors.map((error) => error.code)).toEqual(['INVALID_JSON']);
  });

  it('malformed JSON on /v1/messages: 400 in the vendor format; a body over the limit: 413', async () => {
    const messages = await call(`${app.url}/v1/messages`, 'POST', vendorHeaders, '{"model": ');
    expect(messages.status).toBe(400);
    expect(messages.text).not.toMatch(STACK_OR_PATH);
    expect(JSON.parse(messages.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const large = await call(`${app.url}/v1/chat/completions`, 'POST', chatHeaders, JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(4096) }] }));
    expect(large.status).toBe(413);
    expect(JSON.parse(large.text)).toMatchObject({ error: { code: 'request_too_large' } });
  });

  it("another error on a gateway path: a JSON 500 that tells nothing of it; onError gets it as the cause", async () => {
    errors.length = 0;
    const answer = await call(`${app.url}/v1/models`, 'GET', { authorization: `Bearer ${KEY}` });
    expect(answer.status).toBe(500);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.text).not.toMatch(/ECONNREFUSED|10\.0\.0\.7|db\.js/);
    expect(answer.text).not.toMatch(STACK_OR_PATH);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { type: expect.any(String), message: expect.any(String) } });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('INTERNAL');
    expect((errors[0]!.cause as Error).message).toContain('ECONNREFUSED');
  });

  it("the app's own path keeps Express's error page", async () => {
    const answer = await call(`${app.url}/app/echo`, 'POST', { 'content-type': 'application/json' }, '{"a":');
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^text\/html/);
    expect(answer.requestId).toBeNull();
  });
});

describe('mounted under a path of the app', () => {
  it('express: /llm/chat/completions names /llm/v1/chat/completions', async () => {
    const gateway = createGateway({ auth: { keys: [KEY] } });
    const server = express5();
    const mg = expressGateway(gateway);
    server.use('/llm', express5.json(), mg);
    server.use('/llm', expressBaseUrlHints(mg));
    const app = await listen(server as unknown as RequestListener);
    try {
      const client = new OpenAI({ baseURL: `${app.url}/llm`, apiKey: KEY, maxRetries: 0 });
      const error = await failure(() => client.models.list());
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as Error).message).toContain('the gateway serves it at /llm/v1/models');
      // The JSON parser's errors under the mount are the gateway's too.
      const malformed = await call(`${app.url}/llm/v1/chat/completions`, 'POST', chatHeaders, '{');
      expect(malformed.status).toBe(400);
      expect(JSON.parse(malformed.text)).toMatchObject({ error: { type: 'invalid_request_error' } });
    } finally {
      await app.close();
      await gateway.close();
    }
  });

  it('fastify: prefix /ai, /ai/chat/completions names /ai/v1/chat/completions', async () => {
    const gateway = createGateway({ auth: { keys: [KEY] } });
    let listener: RequestListener | undefined;
    const server = fastify5({
      serverFactory: (handler) => {
        listener = handler;
        return createServer(handler);
      },
    });
    await server.register(fastifyGateway, { gateway, prefix: '/ai', baseUrlHints: true });
    await server.ready();
    const app = await listen(listener!);
    try {
      const client = new OpenAI({ baseURL: `${app.url}/ai`, apiKey: KEY, maxRetries: 0 });
      const error = await failure(() => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello.' }] }));
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as Error).message).toContain('the gateway serves it at /ai/v1/chat/completions');
    } finally {
      await app.close();
      await server.close();
    }
  });
});
