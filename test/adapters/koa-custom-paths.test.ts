/**
 * Step pipelines at paths of the app's own choosing (`mg.steps(endpoint)`)
 * with `@koa/router`, on Koa 2 and 3, with and without `@koa/bodyparser`:
 * the steps present the endpoint's canonical path to the core.
 */
import type { Server } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa3, { type Context, type Next } from 'koa';
import Koa2 from 'koa2';
import type { GatewayContext } from 'modelgate';
import { koaGateway } from 'modelgate/koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { listen } from '../helpers/start-app.js';

const user = [{ role: 'user', content: 'Hello there.' }];

describe.each([
  ['koa 3', Koa3, false],
  ['koa 2', Koa2, false],
  ['koa 3 + @koa/bodyparser', Koa3, true],
  ['koa 2 + @koa/bodyparser', Koa2, true],
] as const)('steps at custom paths on %s', (_name, Koa, parseBody) => {
  let server: { url: string; server: Server; close(): Promise<void> };
  const seen: string[] = [];

  beforeAll(async () => {
    const mg = koaGateway({ auth: AUTH });
    const app = new Koa();
    if (parseBody) app.use(bodyParser({ jsonLimit: '50mb' }));
    const note = async (ctx: Context, next: Next) => {
      seen.push((ctx.state.modelgate as GatewayContext).principal?.id ?? 'none');
      await next();
    };
    const router = new Router();
    const chat = mg.steps('chat.completions');
    router.post('/ai/chat', chat.authenticate, note, chat.validate, chat.enforceRules, chat.dispatch);
    const messages = mg.steps('messages');
    router.post('/ai/claude', messages.authenticate, note, messages.dispatch);
    router.post('/ai/count', mg.steps('messages.count_tokens').dispatch);
    app.use(router.routes());
    server = await listen(app.callback());
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('chat: the whole pipeline answers like /v1/chat/completions, with the app step in between', async () => {
    seen.length = 0;
    const response = await post('/ai/chat', { model: 'vendora-sonnet-4-6', messages: user }, { authorization: `Bearer ${KEY}` });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'chat.completion', model: 'vendora-sonnet-4-6' });
    expect(seen).toEqual([expect.stringMatching(/^key_/)]);
  });

  it('chat: streams, and its errors are in the chat format', async () => {
    const streamed = await post('/ai/chat', { model: 'gpt-4o', stream: true, messages: user }, { authorization: `Bearer ${KEY}` });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await streamed.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);

    const unauthenticated = await post('/ai/chat', { model: 'gpt-4o', messages: user });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });

    const ruled = await post('/ai/chat', { model: 'vendora-opus-4-7', temperature: 0.5, messages: user }, { authorization: `Bearer ${KEY}` });
    expect(ruled.status).toBe(400);
    expect(await ruled.json()).toMatchObject({ error: { param: 'temperature' } });
  });

  it('messages and count_tokens: answered in the vendor format', async () => {
    const headers = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
    const message = await post('/ai/claude', { model: 'vendora-haiku-4-5', max_tokens: 32, messages: user }, headers);
    expect(message.status).toBe(200);
    expect(await message.json()).toMatchObject({ type: 'message', model: 'vendora-haiku-4-5' });

    const invalid = await post('/ai/claude', { model: 'vendora-haiku-4-5', messages: user }, headers);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } });

    const counted = await post('/ai/count', { model: 'vendora-haiku-4-5', messages: user }, headers);
    expect(counted.status).toBe(200);
    expect(((await counted.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
  });

  it('gives each endpoint one bound step set', () => {
    const mg = koaGateway({ auth: AUTH });
    expect(mg.steps('messages')).toBe(mg.steps('messages'));
    expect(mg.steps('messages')).not.toBe(mg.steps('chat.completions'));
  });
});
