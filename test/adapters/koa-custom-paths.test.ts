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
import { customPathCases } from '../helpers/custom-path-cases.js';
import { AUTH } from '../helpers/e2e-fixtures.js';
import { listen } from '../helpers/start-app.js';

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

  customPathCases(() => server.url, seen);

  it('gives each endpoint one bound step set', () => {
    const mg = koaGateway({ auth: AUTH });
    expect(mg.steps('messages')).toBe(mg.steps('messages'));
    expect(mg.steps('messages')).not.toBe(mg.steps('chat.completions'));
  });
});
