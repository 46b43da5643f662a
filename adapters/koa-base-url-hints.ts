/**
 * `koaBaseUrlHints(mg)`: answers the gateway's endpoints reached without
 * `/v1` (`/chat/completions`, `/responses`, `/messages`, `/models` and their
 * paths: a client whose base URL lacks `/v1`) with the gateway's 404 in the
 * caller's format, saying to add `/v1` to the base URL, instead of Koa's
 * plain-text "Not Found". Opt-in. It answers only what the rest of the app
 * left unanswered (it looks after `next()`), so a route of the app at one
 * of these paths keeps it wherever this is mounted.
 */
import type { Context, Middleware, Next } from 'koa';
import { isEndpointPathWithoutV1 } from '../src/match-endpoint.js';
import { respond } from './koa-respond.js';
import { handleNodeRequest } from './node-http.js';
import { type GatewaySource, gatewayOf } from './parser-error-response.js';

/** Koa's state of a request nothing answered: no body, and the 404 it starts with. */
const unanswered = (ctx: Context): boolean => ctx.status === 404 && ctx.body == null && !ctx.headerSent;

/**
 * Creates the middleware. Mount it at the same path as the gateway.
 *
 * @param source `koaGateway(...)`'s result, or a gateway: the answers carry its request id and reach its `onError` and metrics.
 * @example
 * const mg = koaGateway({ auth: { keys: [process.env.MODELGATE_KEY!] } });
 * app.use(koaBaseUrlHints(mg)); // POST /chat/completions → 404 "... Add /v1 to the end of the client's base URL"
 * app.use(mg);
 */
export function koaBaseUrlHints(source: GatewaySource): Middleware {
  const gateway = gatewayOf(source);
  return async function modelgateBaseUrlHints(ctx: Context, next: Next): Promise<void> {
    await next();
    if (!unanswered(ctx) || !isEndpointPathWithoutV1(ctx.path)) return;
    // The whole URL, so that the hint names the path under a mount (`/llm/v1/chat/completions`).
    respond(ctx, await handleNodeRequest(gateway, ctx.req, ctx.res, { url: ctx.originalUrl }));
  };
}
