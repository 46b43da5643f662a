/**
 * `modelgate/express`: mount the gateway in an Express 4 or 5 app.
 *
 * `expressGateway(...)` is what `app.use` takes: the gateway's middleware,
 * serving every route under `/v1` of where it is mounted, and the error
 * handler of those paths (an array of the two: Express runs an error handler
 * only as a layer of its own). Its properties are the per-endpoint handlers
 * and the steps (authenticate, validate, enforceRules, dispatch) as separate
 * middlewares, so an app can put its own code between them. All logic lives
 * in the core; this file only moves requests and responses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { Gateway } from '../src/gateway.js';
import type { GatewayContext } from '../src/gateway-context.js';
import type { ShutdownOptions } from '../src/lifecycle/shutdown.js';
import { type BodyEndpointName, canonicalPath } from '../src/match-endpoint.js';
import type { GatewayResponse, Principal } from '../src/types.js';
import { type GatewayOrOptions, toGateway } from './node-http.js';
import { closeIfBodyUnread, toGatewayRequest } from './node-request.js';
import { type AdapterStep, adapterSteps, beginStepContext, frameworkBodyOf, wrapSteps } from './step-middlewares.js';
import { writeGatewayResponse } from './node-response.js';
import { createExpressErrorHandler, type ExpressErrorHandler } from './express-errors.js';
import { isV1Path } from './v1-path.js';
import type { ExpressMiddleware } from './express-middleware.js';

export type { ExpressMiddleware } from './express-middleware.js';

/** The gateway's steps as middlewares; the context travels in `res.locals.modelgate`. */
export interface ExpressSteps {
  authenticate: ExpressMiddleware;
  /** Uses the app's own authentication (e.g. `req.user`): return its principal, or null to fall back to gateway keys (401 without one). */
  authenticateWith(getPrincipal: (req: Request) => Principal | null | undefined | Promise<Principal | null | undefined>): ExpressMiddleware;
  validate: ExpressMiddleware;
  enforceRules: ExpressMiddleware;
  dispatch: ExpressMiddleware;
}

/**
 * The gateway for `app.use(mg)` (or `app.use('/llm', mg)`): an array of its
 * middleware, which serves `/v1` and its paths and passes every other path
 * on, and its error handler, which answers the errors earlier middleware
 * passed on for those paths (`express.json()`'s malformed JSON, a body over
 * its limit, ...) in the caller's format; other paths' errors go on to the
 * app's own error handlers.
 */
export interface ExpressGateway extends Array<ExpressMiddleware | ExpressErrorHandler>, ExpressSteps {
  readonly gateway: Gateway;
  /**
   * Graceful shutdown (`gateway.shutdown`): new model calls get 503 / 529,
   * calls in progress run for up to `graceMs`, streams still open then end
   * with an error event. Call it on SIGTERM, then close the HTTP server.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
  /** Per-endpoint handlers, for apps that mount only some routes (at any path). */
  chatCompletions: ExpressMiddleware;
  messages: ExpressMiddleware;
  countTokens: ExpressMiddleware;
  models: ExpressMiddleware;
  files: ExpressMiddleware;
  /**
   * The steps bound to one endpoint, for a pipeline at a path of the app's
   * own (`app.post('/ai/chat', chat.authenticate, ..., chat.dispatch)`).
   * The unbound steps (`mg.authenticate`, ...) read the endpoint from the
   * path, so they need the canonical ones (`/v1/...` under the mount).
   */
  steps(endpoint: BodyEndpointName): ExpressSteps;
}

type Step = AdapterStep<Request>;

function withQuery(path: string, url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? path : path + url.slice(mark);
}

/**
 * A `verify` function for `express.json()` that keeps the body's bytes on
 * `req.rawBody`. A gateway mounted after `express.json()` then forwards
 * those bytes unchanged (after validating them) instead of re-serialising
 * `req.body`, which costs several times the parse for large bodies. Only
 * UTF-8 bodies are kept (the gateway forwards JSON as UTF-8); others fall
 * back to `req.body`.
 *
 * @example
 * app.use(express.json({ limit: '32mb', verify: keepRawBody }));
 * app.use(expressGateway({ auth: { keys: [process.env.MODELGATE_KEY!] } }));
 */
export function keepRawBody(req: IncomingMessage, _res: ServerResponse, buf: Buffer, encoding: string): void {
  // body-parser passes the charset it will decode with ('utf-8' by default); utf-16 bodies must not be forwarded as is.
  const charset = encoding.toLowerCase();
  if (charset === 'utf-8' || charset === 'utf8') (req as { rawBody?: unknown }).rawBody = buf;
}

/**
 * Creates the Express middleware.
 *
 * @example
 * app.use(expressGateway({ auth: { keys: ['sk-local'] } }));
 */
export function expressGateway(gatewayOrOptions: GatewayOrOptions): ExpressGateway {
  const gateway = toGateway(gatewayOrOptions, 'expressGateway');
  const core = adapterSteps<Request>(gateway);

  /** The request's context, made by its first step (with what `express.json()`, with `keepRawBody`, made of the body). */
  function contextOf(req: Request, res: Response, url?: string): GatewayContext {
    const existing = res.locals.modelgate as GatewayContext | undefined;
    if (existing) return existing;
    const frameworkBody = () => frameworkBodyOf(req.body, (req as Request & { rawBody?: string | Uint8Array }).rawBody);
    const ctx = beginStepContext(gateway, req, res, { ...(url !== undefined ? { url } : {}), frameworkBody });
    res.locals.modelgate = ctx;
    return ctx;
  }

  /** Runs `step`; writes its response (or error) and stops, or calls `next()` to continue. */
  const middleware = (step: Step, url?: (req: Request) => string): ExpressMiddleware =>
    function modelgateStep(req, res, next) {
      void (async () => {
        const stepUrl = url?.(req);
        let ctx: GatewayContext | undefined;
        let response: GatewayResponse | void;
        try {
          ctx = contextOf(req, res, stepUrl);
          response = await step(ctx, req);
        } catch (error) {
          ctx ??= gateway.begin(toGatewayRequest(req, res, stepUrl !== undefined ? { url: stepUrl } : {}));
          response = gateway.renderError(ctx, error);
        }
        // Outside the try: the app's own later middleware handles its own errors.
        if (!response) return next();
        await writeGatewayResponse(res, closeIfBodyUnread(req, gateway.finish(ctx, response)));
      })();
    };

  const dispatch = core.dispatch;
  const at = (path: string) => (req: Request) => withQuery(path, req.originalUrl ?? req.url);

  // Paths outside /v1 belong to the app: pass them on.
  const all = middleware(dispatch);
  const serve: ExpressMiddleware = function modelgate(req, res, next) {
    if (!isV1Path(req.path)) return next();
    all(req, res, next);
  };
  const layers: Array<ExpressMiddleware | ExpressErrorHandler> = [serve, createExpressErrorHandler(gateway)];

  /** The steps, presenting `url` (when given) to the core instead of the request's own path. */
  function stepsAt(url?: (req: Request) => string): ExpressSteps {
    return wrapSteps(core, (step) => middleware(step, url));
  }

  const bound = new Map<BodyEndpointName, ExpressSteps>();
  return Object.assign(layers, stepsAt(), {
    gateway,
    shutdown: (options?: ShutdownOptions) => gateway.shutdown(options),
    chatCompletions: middleware(dispatch, at(canonicalPath('chat.completions'))),
    messages: middleware(dispatch, at(canonicalPath('messages'))),
    countTokens: middleware(dispatch, at(canonicalPath('messages.count_tokens'))),
    models: middleware(dispatch),
    files: middleware(dispatch),
    steps(endpoint: BodyEndpointName): ExpressSteps {
      let steps = bound.get(endpoint);
      if (steps === undefined) {
        steps = stepsAt(at(canonicalPath(endpoint)));
        bound.set(endpoint, steps);
      }
      return steps;
    },
  });
}

export { expressGatewayErrors } from './express-errors.js';
export { expressBaseUrlHints } from './express-base-url-hints.js';
export type { ExpressErrorHandler } from './express-errors.js';
export { createGateway } from '../src/gateway.js';
export type { Gateway } from '../src/gateway.js';
export type { GatewayOptions } from '../src/gateway-options.js';
export type { ShutdownOptions } from '../src/lifecycle/shutdown.js';
