/**
 * The composable Koa form with `@koa/router`: the gateway's steps as
 * per-route middlewares with the app's own middleware between them,
 * `authenticateWith` reading `ctx.state.user`, and per-endpoint handlers,
 * on Koa 2 and 3 with and without `@koa/bodyparser`.
 */
import type { Server } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa3, { type Context, type Next } from 'koa';
import Koa2 from 'koa2';
import type { GatewayContext, UsageRecord } from 'modelgate';
import { koaGateway } from 'modelgate/koa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, KEY, LIMITED_KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { listen } from '../helpers/start-app.js';

const user = [{ role: 'user' as const, content: 'Hello there.' }];

describe.each([
  ['koa 3', Koa3, false],
  ['koa 2', Koa2, false],
  ['koa 3 + @koa/bodyparser', Koa3, true],
  ['koa 2 + @koa/bodyparser', Koa2, true],
] as const)('composed gateway on %s with @koa/router', (_name, Koa, parseBody) => {
  let server: { url: string; server: Server; close(): Promise<void> };
  const seen: string[] = [];
  const usage: UsageRecord[] = [];

  beforeAll(async () => {
    const mg = koaGateway({ auth: AUTH, onUsage: (record) => usage.push(record) });
    const app = new Koa();
    if (parseBody) app.use(bodyParser({ jsonLimit: '50mb' }));
    app.use(async (ctx: Context, next: Next) => {
      const name = ctx.get('x-app-user');
      if (name) ctx.state.user = { id: name };
      await next();
    });
    const quota = async (ctx: Context, next: Next) => {
      const gctx = ctx.state.modelgate as GatewayContext;
      const id = gctx.principal?.id ?? 'none';
      seen.push(id);
      if (id === 'limited') {
        ctx.status = 429;
        ctx.body = { type: 'error', error: { type: 'rate_limit_error', message: 'Monthly quota used up.' } };
        return;
      }
      ctx.set('x-app-principal', id);
      await next();
    };
    const router = new Router();
    router.post('/v1/messages', mg.authenticate, quota, mg.validate, mg.enforceRules, mg.dispatch);
    router.post('/v1/messages/count_tokens', mg.countTokens);
    router.post(
      '/v1/chat/completions',
      mg.authenticateWith((ctx) => {
        const appUser = ctx.state.user as { id: string } | undefined;
        return appUser ? { id: `user:${appUser.id}`, allowedModels: ['gpt-4o'] } : null;
      }),
      mg.chatCompletions,
    );
    router.get('/v1/models', mg.models);
    router.get('/health', (ctx) => {
      ctx.body = { status: 'ok' };
    });
    app.use(router.routes());
    app.use(router.allowedMethods());
    app.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error(error);
    });
    server = await listen(app.callback());
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    seen.length = 0;
    usage.length = 0;
  });

  it('runs the app middleware between authenticate and validate, with the principal', async () => {
    const { data, response } = await anthropicClient(server.url)
      .messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user })
      .withResponse();
    expect(data.stop_reason).toBe('end_turn');
    expect(response.headers.get('x-app-principal')).toMatch(/^key_[0-9a-f]{24}$/);
    expect(seen).toEqual([response.headers.get('x-app-principal')]);
  });

  it('streams through the composed route', async () => {
    const final = await anthropicClient(server.url)
      .messages.stream({ model: 'vendora-sonnet-4-5', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: user })
      .finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(seen).toHaveLength(1);
  });

  it('the app middleware can stop the request; a 401 never reaches it', async () => {
    const limited = await anthropicClient(server.url, LIMITED_KEY).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }).catch((e: unknown) => e);
    expect(limited).toMatchObject({ status: 429 });
    const unauthorised = await anthropicClient(server.url, 'sk-nope').messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }).catch((e: unknown) => e);
    expect(unauthorised).toMatchObject({ status: 401 });
    expect(seen).toEqual(['limited']);
    expect(usage).toEqual([]);
  });

  it('authenticateWith: the app user and its model limits; the gateway key otherwise', async () => {
    const asUser = openAIClient(server.url, 'not-a-gateway-key');
    const completion = await asUser.chat.completions.create({ model: 'gpt-4o', messages: user }, { headers: { 'x-app-user': 'bob' } });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(usage.map((record) => record.principalId)).toEqual(['user:bob']);
    const denied = await asUser.chat.completions.create({ model: 'vendora-opus-4-8', messages: user }, { headers: { 'x-app-user': 'bob' } }).catch((e: unknown) => e);
    expect(denied).toMatchObject({ status: 403, param: 'model' });
    const withKey = await openAIClient(server.url, KEY).chat.completions.create({ model: 'vendora-opus-4-8', messages: user });
    expect(withKey.model).toBe('vendora-opus-4-8');
  });

  it('per-endpoint handlers: count_tokens and models', async () => {
    const counted = await anthropicClient(server.url).messages.countTokens({ model: 'vendora-opus-5', messages: user });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const models = [];
    for await (const model of anthropicClient(server.url).models.list({ limit: 4 })) models.push(model.id);
    expect(models).toHaveLength(12);
  });

  it('leaves the app routes alone; unrouted gateway paths are the router\'s 404/405', async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
    const files = await fetch(`${server.url}/v1/files`, { headers: { 'x-api-key': KEY } });
    expect(files.status).toBe(404);
    const wrongMethod = await fetch(`${server.url}/v1/models`, { method: 'DELETE', headers: { 'x-api-key': KEY } });
    expect(wrongMethod.status).toBe(405);
  });
});
