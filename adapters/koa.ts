/**
 * `modelgate/koa`: mount the gateway in a Koa 2 or 3 app.
 *
 * `koaGateway(...)` is a middleware serving every route under `/v1` (other
 * paths go to `next`); its properties are per-endpoint middlewares and the
 * steps, for `@koa/router`. The context travels in `ctx.state.modelgate`.
 * Responses go through Koa (`ctx.body`), streams as a Node `Readable` so Koa 2
 * pipes them too; all logic lives in the core.
 */
import type { Context, Middleware, Next } from 'koa';
import type { Gateway } from '../src/gateway.js';
import type { ShutdownOptions } from '../src/lifecycle/shutdown.js';
import type { GatewayContext } from '../src/gateway-context.js';
import { type BodyEndpointName, canonicalPath } from '../src/match-endpoint.js';
import type { GatewayResponse, Principal } from '../src/types.js';
import { respond } from './koa-respond.js';
import { type GatewayOrOptions, toGateway } from './node-http.js';
import { closeIfBodyUnread, toGatewayRequest } from './node-request.js';
import { type AdapterStep, adapterSteps, beginStepContext, frameworkBodyOf, wrapSteps } from './step-middlewares.js';

/** The gateway's steps as Koa middlewares; the context travels in `ctx.state.modelgate`. */
export interface KoaSteps {
  authenticate: Middleware;
  /** Uses the app's own authentication (e.g. `ctx.state.user`): return its principal, or null to fall back to gateway keys. */
  authenticateWith(getPrincipal: (ctx: Context) => Principal | null | undefined | Promise<Principal | null | undefined>): Middleware;
  validate: Middleware;
  enforceRules: Middleware;
  dispatch: Middleware;
}

export interface KoaGateway extends Middleware, KoaSteps {
  readonly gateway: Gateway;
  /**
   * Graceful shutdown (`gateway.shutdown`): new model calls get 503 / 529,
   * calls in progress run for up to `graceMs`, streams still open then end
   * with an error event. Call it on SIGTERM, then close the HTTP server.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
  /** Per-endpoint middlewares, for apps that mount only some routes (at any path). */
  chatCompletions: Middleware;
  messages: Middleware;
  countTokens: Middleware;
  models: Middleware;
  files: Middleware;
  /**
   * The steps bound to one endpoint, for a pipeline at a path of the app's
   * own (`router.post('/ai/chat', chat.authenticate, ..., chat.dispatch)`).
   * The unbound steps read the endpoint from the path, so they need the
   * canonical ones (`/v1/...`).
   */
  steps(endpoint: BodyEndpointName): KoaSteps;
}

type Step = AdapterStep<Context>;

/**
 * Creates the Koa middleware.
 *
 * @example
 * app.use(koaGateway({ auth: { keys: ['sk-local'] } }));
 */
export function koaGateway(gatewayOrOptions: GatewayOrOptions): KoaGateway {
  const gateway = toGateway(gatewayOrOptions, 'koaGateway');
  const core = adapterSteps<Context>(gateway);

  /** The request's context, made by its first step (with what a body parser of the app's, `@koa/bodyparser`, made of the body). */
  function contextOf(ctx: Context, url?: string): GatewayContext {
    const existing = ctx.state.modelgate as GatewayContext | undefined;
    if (existing) return existing;
    const koaRequest = ctx.request as Context['request'] & { body?: unknown; rawBody?: string };
    const gctx = beginStepContext(gateway, ctx.req, ctx.res, { url: url ?? ctx.url, frameworkBody: () => frameworkBodyOf(koaRequest.body, koaRequest.rawBody) });
    ctx.state.modelgate = gctx;
    return gctx;
  }

  const middleware = (step: Step, url?: string): Middleware =>
    async function modelgateStep(ctx: Context, next: Next) {
      const stepUrl = url === undefined ? undefined : url + ctx.search;
      let gctx: GatewayContext | undefined;
      let response: GatewayResponse | void;
      try {
        gctx = contextOf(ctx, stepUrl);
        response = await step(gctx, ctx);
      } catch (error) {
        gctx ??= gateway.begin(toGatewayRequest(ctx.req, ctx.res, { url: stepUrl ?? ctx.url }));
        response = gateway.renderError(gctx, error);
      }
      // Outside the try: errors of the app's own later middleware are the app's, not the gateway's.
      if (!response) return next();
      respond(ctx, closeIfBodyUnread(ctx.req, gateway.finish(gctx, response)));
    };

  const dispatch = core.dispatch;
  const all = middleware(dispatch);
  const root = async function modelgate(ctx: Context, next: Next) {
    if (!ctx.path.startsWith('/v1/') && ctx.path !== '/v1') return next();
    return all(ctx, next);
  } as KoaGateway;

  /** The steps, presenting `url` (when given) to the core instead of the request's own path. */
  function stepsAt(url?: string): KoaSteps {
    return wrapSteps(core, (step) => middleware(step, url));
  }

  const bound = new Map<BodyEndpointName, KoaSteps>();
  return Object.assign(root, stepsAt(), {
    gateway,
    shutdown: (options?: ShutdownOptions) => gateway.shutdown(options),
    chatCompletions: middleware(dispatch, canonicalPath('chat.completions')),
    messages: middleware(dispatch, canonicalPath('messages')),
    countTokens: middleware(dispatch, canonicalPath('messages.count_tokens')),
    models: middleware(dispatch),
    files: middleware(dispatch),
    steps(endpoint: BodyEndpointName): KoaSteps {
      let steps = bound.get(endpoint);
      if (steps === undefined) {
        steps = stepsAt(canonicalPath(endpoint));
        bound.set(endpoint, steps);
      }
      return steps;
    },
  });
}

export { koaGatewayErrors } from './koa-errors.js';
export { koaBaseUrlHints } from './koa-base-url-hints.js';
export { createGateway } from '../src/gateway.js';
export type { Gateway } from '../src/gateway.js';
export type { GatewayOptions } from '../src/gateway-options.js';
export type { ShutdownOptions } from '../src/lifecycle/shutdown.js';
