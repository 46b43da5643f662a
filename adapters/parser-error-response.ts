/**
 * The response for a body parser's error (or another error an earlier
 * middleware passed on) on a gateway path, shared by the Express and Koa
 * error middlewares: rendered in the caller's interface format, through the
 * gateway when one is given (request id, `onError`, metrics), else on its own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayError } from '../src/errors.js';
import type { Gateway } from '../src/gateway.js';
import { createGatewayContext } from '../src/gateway-context.js';
import { renderError } from '../src/render-error.js';
import type { GatewayResponse } from '../src/types.js';
import { endObservationOnClose, toGatewayRequest } from './node-request.js';
import { sanitizeResponseHeaders } from '../src/header-value.js';

/** A gateway, or what an adapter made of one (`expressGateway(...)`, `koaGateway(...)` carry it as `.gateway`). */
export type GatewaySource = Gateway | { readonly gateway: Gateway };

/** The gateway of `source`. */
export function gatewayOf(source: GatewaySource): Gateway {
  return 'handle' in source && typeof source.handle === 'function' ? source : (source as { gateway: Gateway }).gateway;
}

/** The error response to `req` (at `url`, the path the gateway sees) for `error`. */
export function parserErrorResponse(source: GatewaySource | undefined, req: IncomingMessage, res: ServerResponse, url: string, error: GatewayError): GatewayResponse {
  const request = toGatewayRequest(req, res, { url });
  if (source !== undefined) {
    const gateway = gatewayOf(source);
    const ctx = gateway.begin(request);
    endObservationOnClose(ctx, res);
    return gateway.finish(ctx, gateway.renderError(ctx, error));
  }
  const ctx = createGatewayContext(request);
  const response = renderError(error, ctx.format);
  response.headers['request-id'] = ctx.requestId;
  response.headers['x-request-id'] = ctx.requestId;
  sanitizeResponseHeaders(response.headers);
  return response;
}
