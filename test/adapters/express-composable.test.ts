/**
 * The composable Express form: the gateway's steps as separate middlewares
 * with the app's own middleware between them, `authenticateWith` using the
 * app's own users, per-endpoint handlers, and the whole gateway mounted
 * under a prefix, on Express 4 and 5 with and without `express.json()`.
 */
import type { Server } from 'node:http';
import express5, { type NextFunction, type Request, type Response } from 'express';
import express4 from 'express4';
import type { GatewayContext, UsageRecord } from 'modelgate';
import { expressGateway } from 'modelgate/express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, KEY, LIMITED_KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { listen } from '../helpers/start-app.js';

type AppRequest = Request & { user?: { id: string } };

const user = [{ role: 'user' as const, content: 'Hello there.' }];

describe.each([
  ['express 5', express5, false],
  ['express 4', express4, false],
  ['express 5 + express.json()', express5, true],
  ['express 4 + express.json()', express4, true],
] as const)('composed gateway on %s', (_name, express, parseJson) => {
  let server: { url: string; server: Server; close(): Promise<void> };
  const seen: string[] = [];
  const usage: UsageRecord[] = [];

  beforeAll(async () => {
    const mg = expressGateway({ auth: AUTH, onUsage: (record) => usage.push(record) });
    const app = express();
    if (parseJson) app.use(express.json({ limit: '50mb' }));
    // The app's own authentication (a session, say), here a header.
    app.use((req: AppRequest, _res: Response, next: NextFunction) => {
      const name = req.header('x-app-user');
      if (name) req.user = { id: name };
      next();
    });
    // The app's own step between the gateway's: it reads the principal and may stop the request.
    const quota = (_req: Request, res: Response, next: NextFunction) => {
      const ctx = res.locals.modelgate as GatewayContext;
      const id = ctx.principal?.id ?? 'none';
      seen.push(id);
      if (id === 'limited') {
        res.status(429).json({ type: 'error', error: { type: 'rate_limit_error', message: 'Monthly quota used up.' } });
        return;
      }
      res.setHeader('x-app-principal', id);
      next();
    };
    app.post('/v1/messages', mg.authenticate, quota, mg.validate, mg.enforceRules, mg.dispatch);
    app.post(
      '/v1/chat/completions',
      mg.authenticateWith((req: AppRequest) => (req.user ? { id: `user:${req.user.id}` } : null)),
      mg.chatCompletions,
    );
    app.use('/llm', mg);
    app.get('/health', (_req, res) => {
      res.json({ status: 'ok' });
    });
    server = await listen(app as never);
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    seen.length = 0;
    usage.length = 0;
  });

  it('runs the app middleware between authenticate and validate, with the principal', async () => {
    const client = anthropicClient(server.url);
    const { data, response } = await client.messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }).withResponse();
    expect(data.stop_reason).toBe('end_turn');
    expect(response.headers.get('x-app-principal')).toMatch(/^key_[0-9a-f]{24}$/);
    expect(seen).toEqual([response.headers.get('x-app-principal')]);
  });

  it('streams through the composed route', async () => {
    const final = await anthropicClient(server.url).messages.stream({ model: 'vendora-opus-4-8', max_tokens: 256, messages: user }).finalMessage();
    expect(final.content[0]?.type).toBe('text');
    expect(seen).toHaveLength(1);
  });

  it('the app middleware can stop the request (its own 429)', async () => {
    const error = await anthropicClient(server.url, LIMITED_KEY).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429 });
    expect(usage).toEqual([]);
  });

  it('a 401 stops before the app middleware; a rule error comes after it', async () => {
    const unauthorised = await anthropicClient(server.url, 'sk-nope').messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }).catch((e: unknown) => e);
    expect(unauthorised).toMatchObject({ status: 401 });
    expect(seen).toEqual([]);
    const invalid = await anthropicClient(server.url)
      .messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, stop_sequences: [' '], messages: user })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error' } } });
    expect(seen).toHaveLength(1);
  });

  it('authenticateWith: the app user is the principal; without one the gateway key still works', async () => {
    const asUser = await openAIClient(server.url, 'not-a-gateway-key')
      .chat.completions.create({ model: 'gpt-4o', messages: user }, { headers: { 'x-app-user': 'alice' } });
    expect(asUser.choices[0]?.finish_reason).toBe('stop');
    expect(usage.map((record) => record.principalId)).toEqual(['user:alice']);

    const withKey = await openAIClient(server.url, KEY).chat.completions.create({ model: 'vendora-sonnet-4-6', messages: user });
    expect(withKey.choices[0]?.finish_reason).toBe('stop');
    expect(usage[1]?.principalId).toMatch(/^key_/);

    const neither = await openAIClient(server.url, 'not-a-gateway-key').chat.completions.create({ model: 'gpt-4o', messages: user }).catch((e: unknown) => e);
    expect(neither).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('serves the whole gateway under a prefix', async () => {
    const models = await openAIClient(`${server.url}/llm`).models.list();
    // The catalog's twelve and the simulator's three embedding models.
    expect(models.data).toHaveLength(15);
    const message = await anthropicClient(`${server.url}/llm`).messages.create({ model: 'vendora-haiku-4-5', max_tokens: 32, messages: user });
    expect(message.model).toBe('vendora-haiku-4-5');
    const files = await anthropicClient(`${server.url}/llm`).beta.files.list();
    expect(files.data.length).toBeGreaterThan(0);
  });

  it('leaves the app routes and unrouted paths to the app', async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
    // Not mounted at the root: Express's own 404, not the gateway's.
    const models = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(models.status).toBe(404);
    expect(models.headers.get('request-id')).toBeNull();
  });
});
