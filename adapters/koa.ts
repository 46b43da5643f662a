/**
 * `modelgate/koa`: mount the gateway in a Koa 2 or 3 app.
 *
 * `koaGateway(...)` is a middleware serving every route under `/v1` (other
 * paths go to `next`); its properties are per-endpoint middlewares and the
 * steps, for `@koa/router`. The context travels in `ctx.state.modelgate`.
 * Responses go through Koa (`ctx.body`), streams as a Node `Readable` so Koa 2
 * pipes them too; all logic lives in the core.
 */
import { Readable } from 'node:stream';
import type { Context, Middleware, Next } from 'koa';
import type { Gateway } from '../src/gateway.js';
import type { GatewayContext } from '../src/gateway-context.js';
import type { GatewayResponse, Principal } from '../src/types.js';
import { type GatewayOrOptions, readGatewayRequest, toGateway, toGatewayRequest } from './node-http.js';

export interface KoaGateway extends Middleware {
  readonly gateway: Gateway;
  chatCompletions: Middleware;
  messages: Middleware;
  countTokens: Middleware;
  models: Middleware;
  files: Middleware;
  authenticate: Middleware;
  /** Uses the app's own authentication (e.g. `ctx.state.user`): return its principal, or null to fall back to gateway keys. */
  authenticateWith(getPrincipal: (ctx: Context) => Principal | null | undefined | Promise<Principal | null | undefined>): Middleware;
  validate: Middleware;
  enforceRules: Middleware;
  dispatch: Middleware;
}

type Step = (gctx: GatewayContext, ctx: Context) => Promise<GatewayResponse | void> | GatewayResponse | void;

/** Hands a gateway response to Koa. */
function respond(ctx: Context, response: GatewayResponse): void {
  ctx.status = response.status;
  ctx.set(response.headers);
  if (response.type === 'json') {
    ctx.body = response.body;
    return;
  }
  ctx.body = response.body instanceof Uint8Array
    ? Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength)
    : Readable.from(response.body, { objectMode: false });
}

/**
 * Creates the Koa middleware.
 *
 * @example
 * app.use(koaGateway({ auth: { keys: ['sk-local'] } }));
 */
export function koaGateway(gatewayOrOptions: GatewayOrOptions): KoaGateway {
  const gateway = toGateway(gatewayOrOptions);
  const limit = gateway.options.maxBodyBytes;

  async function contextOf(ctx: Context, url?: string): Promise<GatewayContext> {
    const existing = ctx.state.modelgate as GatewayContext | undefined;
    if (existing) return existing;
    const koaRequest = ctx.request as Context['request'] & { body?: unknown; rawBody?: string };
    const request = await readGatewayRequest(ctx.req, ctx.res, {
      url: url ?? ctx.url,
      parsedBody: koaRequest.body,
      ...(koaRequest.rawBody !== undefined ? { rawBody: koaRequest.rawBody } : {}),
      ...(limit !== undefined ? { limit } : {}),
    });
    const gctx = gateway.begin(request);
    ctx.state.modelgate = gctx;
    return gctx;
  }

  const middleware = (step: Step, url?: string): Middleware =>
    async function modelgateStep(ctx: Context, next: Next) {
      const stepUrl = url === undefined ? undefined : url + ctx.search;
      let gctx: GatewayContext | undefined;
      let response: GatewayResponse | void;
      try {
        gctx = await contextOf(ctx, stepUrl);
        response = await step(gctx, ctx);
      } catch (error) {
        gctx ??= gateway.begin(toGatewayRequest(ctx.req, ctx.res, { url: stepUrl ?? ctx.url }));
        response = gateway.renderError(gctx, error);
      }
      // Outside the try: errors of the app's own later middleware are the app's, not the gateway's.
      if (!response) return next();
      respond(ctx, gateway.finish(gctx, response));
    };

  const dispatch: Step = (gctx) => gateway.dispatch(gctx);
  const all = middleware(dispatch);
  const root = async function modelgate(ctx: Context, next: Next) {
    if (!ctx.path.startsWith('/v1/') && ctx.path !== '/v1') return next();
    return all(ctx, next);
  } as KoaGateway;

  return Object.assign(root, {
    gateway,
    chatCompletions: middleware(dispatch, '/v1/chat/completions'),
    messages: middleware(dispatch, '/v1/messages'),
    countTokens: middleware(dispatch, '/v1/messages/count_tokens'),
    models: middleware(dispatch),
    files: middleware(dispatch),
    authenticate: middleware((gctx) => gateway.authenticate(gctx)),
    authenticateWith: (getPrincipal: (ctx: Context) => Principal | null | undefined | Promise<Principal | null | undefined>) =>
      middleware(async (gctx, ctx) => {
        const principal = await getPrincipal(ctx);
        if (principal) gctx.principal = principal;
        else await gateway.authenticate(gctx);
      }),
    validate: middleware((gctx) => gateway.validate(gctx)),
    enforceRules: middleware((gctx) => gateway.enforceRules(gctx)),
    dispatch: middleware(dispatch),
  });
}

export { createGateway } from '../src/gateway.js';
export type { Gateway } from '../src/gateway.js';
export type { GatewayOptions } from '../src/gateway-options.js';
