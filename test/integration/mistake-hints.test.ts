/**
 * Common set-up mistakes as the official clients see them, on every mount:
 * a key in the wrong header or scheme (401 naming what was sent), a base URL
 * off by one /v1 (404 saying how to fix it), and a request larger than a
 * limit's whole capacity (429 with what it needs, never retried).
 * Paths outside /v1 get the hint only from the handlers that answer them
 * (node:http, fetch); the framework mounts here leave them to the app (their
 * opt-in base-URL hints: mounts-base-url.test.ts).
 */
import Anthropic from '@anthropic-ai/sdk';
import { createGateway } from 'modelgate';
import { createFetchHandler } from 'modelgate/fetch';
import OpenAI from 'openai';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, failure, KEY } from '../helpers/e2e-fixtures.js';
import { createListener, listen, MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';

const user = [{ role: 'user' as const, content: 'Hello.' }];
const chatRequest = { model: 'gpt-4o', messages: user };
const messagesRequest = { model: 'vendora-sonnet-4-6', max_tokens: 32, messages: user };

/** The body of an Anthropic SDK error. */
function vendorError(error: unknown): { type?: string; message?: string } {
  return (error as { error?: { error?: { type?: string; message?: string } } }).error?.error ?? {};
}

describe.each(MOUNTS)('set-up mistakes on %s', (mount) => {
  let app: StartedApp;
  beforeAll(async () => {
    app = await startApp(mount, { auth: AUTH });
  });
  afterAll(() => app.close());

  describe('a key the endpoint cannot read → 401 naming what was sent, never the key', () => {
    it('openai: the key without "Bearer " in Authorization', async () => {
      const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: 'unused', defaultHeaders: { authorization: KEY }, maxRetries: 0 });
      const error = await failure(() => client.chat.completions.create(chatRequest));
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.code).toBe('invalid_api_key');
      expect(apiError.message).toContain('the Authorization header has no scheme');
      expect(apiError.message).toContain('"Authorization: Bearer <key>"');
      expect(apiError.message).not.toContain(KEY);
    });

    it('openai: the key in api-key (the Azure convention)', async () => {
      const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: 'unused', defaultHeaders: { authorization: null, 'api-key': KEY }, maxRetries: 0 });
      const error = await failure(() => client.chat.completions.create(chatRequest));
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as Error).message).toContain('the key came in the api-key header, which this gateway does not read');
      expect((error as Error).message).not.toContain(KEY);
    });

    it('chat completions with x-api-key (the messages interface\'s header): says chat completions take Bearer only', async () => {
      const response = await fetch(`${app.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: JSON.stringify(chatRequest),
      });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { message: string; code: string } };
      expect(body.error.code).toBe('invalid_api_key');
      expect(body.error.message).toContain('the key came in the x-api-key header, which chat completions do not read');
    });

    it('anthropic: the key under the Token scheme', async () => {
      const client = new Anthropic({ baseURL: app.url, apiKey: null, authToken: null, defaultHeaders: { 'x-api-key': null, authorization: `Token ${KEY}` }, maxRetries: 0 });
      const error = await failure(() => client.messages.create(messagesRequest));
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(vendorError(error)).toEqual({
        type: 'authentication_error',
        message: 'No API key read: the Authorization header uses the Token scheme, not Bearer. Send it as "x-api-key: <key>" or "Authorization: Bearer <key>".',
      });
    });
  });

  describe('a base URL off by one /v1 → 404 saying how to fix it', () => {
    it('anthropic with a base URL ending in /v1 (it calls /v1/v1/messages): NotFoundError, drop /v1', async () => {
      const client = new Anthropic({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
      const error = await failure(() => client.messages.create(messagesRequest));
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      expect(vendorError(error).type).toBe('not_found_error');
      expect((error as Error).message).toContain("the path has /v1 twice. Remove /v1 from the end of the client's base URL so it calls /v1/messages");
    });

    it('openai with a base URL ending in /v1/v1: NotFoundError, the base URL already ends in /v1', async () => {
      const client = new OpenAI({ baseURL: `${app.url}/v1/v1`, apiKey: KEY, maxRetries: 0 });
      const error = await failure(() => client.chat.completions.create(chatRequest));
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('unknown_url');
      expect((error as Error).message).toContain('the base URL already ends in /v1 and the client adds another');
    });

    it('openai with the bare origin as base URL (no /v1): the hint where the gateway answers that path, the app\'s own 404 elsewhere', async () => {
      const client = new OpenAI({ baseURL: app.url, apiKey: KEY, maxRetries: 0 });
      const error = await failure(() => client.chat.completions.create(chatRequest));
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      if (mount === 'node') {
        // createNodeHandler answers every path.
        expect(apiError.message).toContain("the gateway serves it at /v1/chat/completions. Add /v1 to the end of the client's base URL");
        expect(apiError.headers?.get('request-id')).toMatch(/^req_/);
      } else {
        // Express, Koa and Fastify pass the path on to the app; the Hono app routes only /v1/* to the handler.
        expect(apiError.message).not.toContain('/v1');
        expect(apiError.headers?.get('request-id')).toBeNull();
      }
    });
  });
});

describe('the fetch handler serving every path', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(getRequestListener(createFetchHandler(createGateway({ auth: AUTH }))));
  });
  afterAll(() => server.close());

  it('openai with the bare origin as base URL: NotFoundError with the hint to add /v1', async () => {
    const client = new OpenAI({ baseURL: server.url, apiKey: KEY, maxRetries: 0 });
    const error = await failure(() => client.models.list());
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).toContain("No endpoint at GET /models: the gateway serves it at /v1/models. Add /v1 to the end of the client's base URL");
  });

  it('a prefix without /v1 (/api/chat/completions): the hint names the full path', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/api`, apiKey: KEY, maxRetries: 0 });
    const error = await failure(() => client.chat.completions.create(chatRequest));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).toContain('the gateway serves it at /api/v1/chat/completions');
  });
});

describe('a request larger than a limit can ever admit → 429 with what it needs; the clients do not retry it', () => {
  let app: Awaited<ReturnType<typeof listen>>;
  let arrived = 0;
  beforeAll(async () => {
    const gateway = createGateway({
      auth: { keys: [KEY] },
      limits: {
        rules: [{ models: 'gpt-*', tokens: { limit: 1000 } }, { models: 'vendora-*', budget: { limit: 0.01 } }],
        // $15 / $75 per million: 4,000 output tokens alone may cost 0.3.
        prices: { 'vendora-*': { input: 15, output: 75 } },
      },
    });
    const listener = await createListener('koa3', gateway);
    app = await listen((req, res) => {
      arrived++;
      listener(req, res);
    });
  });
  afterAll(() => app.close());

  it('openai: tokens needed against the limit, no retry-after, one request only', async () => {
    const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 3 });
    arrived = 0;
    const error = await failure(() => client.chat.completions.create({ ...chatRequest, max_tokens: 5000 }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.message).toMatch(/^429 This request can never fit this key's limits, however long it waits \(tokens: this request needs \d+ tokens \(estimated: \d+ input \+ 5000 output, max_tokens × n\), more than the whole limit of 1000 per 60 s\)/);
    expect(apiError.headers?.get('retry-after')).toBeNull();
    expect(apiError.headers?.get('x-should-retry')).toBe('false');
    expect(arrived).toBe(1);
  });

  it('anthropic: the estimated cost against the whole budget, not "spent"', async () => {
    const client = new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 3 });
    arrived = 0;
    const error = await failure(() => client.messages.create({ ...messagesRequest, max_tokens: 4000 }));
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const message = vendorError(error).message ?? '';
    expect(message).toMatch(/budget: this request may cost up to 0\.30\d* \(estimated at the configured prices\), more than the whole budget of 0\.01 per 1 d/);
    expect(message).not.toMatch(/spent|retry in/i);
    expect((error as InstanceType<typeof Anthropic.APIError>).headers?.get('retry-after')).toBeNull();
    expect(arrived).toBe(1);
  });
});
