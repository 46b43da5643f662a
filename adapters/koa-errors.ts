/**
 * `koaGatewayErrors()`: a Koa middleware, mounted before `@koa/bodyparser`,
 * that answers the parser's errors on the gateway's paths (malformed JSON, a
 * body over its limit, an unsupported encoding) in the caller's interface
 * format, as the gateway answers them itself, instead of Koa's plain-text
 * error. Other paths and other errors are rethrown to the app.
 */
import type { Context, Middleware, Next } from 'koa';
import { fromBodyParserError } from './body-parser-error.js';
import { type GatewaySource, parserErrorResponse } from './parser-error-response.js';
import { isV1Path } from './v1-path.js';

/**
 * Creates the middleware. Pass the gateway so that these answers carry its
 * request id and reach its `onError` and metrics.
 *
 * @param gateway `koaGateway(...)`'s result, or a gateway; optional.
 * @example
 * const mg = koaGateway({ auth: { keys: [process.env.MODELGATE_KEY!] } });
 * app.use(koaGatewayErrors(mg));
 * app.use(bodyParser({ jsonLimit: '32mb' }));
 * app.use(mg);
 */
export function koaGatewayErrors(gateway?: GatewaySource): Middleware {
  return async function modelgateErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      const gatewayError = isV1Path(ctx.path) && !ctx.headerSent ? fromBodyParserError(error) : undefined;
      if (!gatewayError) throw error;
      const response = parserErrorResponse(gateway, ctx.req, ctx.res, ctx.url, gatewayError);
      ctx.status = response.status;
      ctx.set(response.headers);
      ctx.body = response.type === 'json' ? response.body : undefined;
    }
  };
}
