/**
 * `expressBaseUrlHints(mg)`: answers the gateway's endpoints reached without
 * `/v1` (`/chat/completions`, `/responses`, `/messages`, `/models` and their
 * paths: a client whose base URL lacks `/v1`) with the gateway's 404 in the
 * caller's format, saying to add `/v1` to the base URL, instead of the
 * app's HTML 404. Opt-in, and mounted after the app's own routes, so that a
 * route of the app at one of these paths keeps it.
 */
import type { Request } from 'express';
import { isEndpointPathWithoutV1 } from '../src/match-endpoint.js';
import type { ExpressMiddleware } from './express-middleware.js';
import { handleNodeRequest } from './node-http.js';
import { writeGatewayResponse } from './node-response.js';
import { type GatewaySource, gatewayOf } from './parser-error-response.js';

/**
 * Creates the middleware. Mount it last, at the same path as the gateway.
 *
 * @param source `expressGateway(...)`'s result, or a gateway: the answers carry its request id and reach its `onError` and metrics.
 * @example
 * const mg = expressGateway({ auth: { keys: [process.env.MODELGATE_KEY!] } });
 * app.use(mg);
 * app.get('/health', (_req, res) => { res.json({ status: 'ok' }); });
 * app.use(expressBaseUrlHints(mg)); // last: POST /chat/completions → 404 "... Add /v1 to the end of the client's base URL"
 */
export function expressBaseUrlHints(source: GatewaySource): ExpressMiddleware {
  const gateway = gatewayOf(source);
  return function modelgateBaseUrlHints(req: Request, res, next) {
    if (!isEndpointPathWithoutV1(req.path)) return next();
    // The whole URL, so that the hint names the path under the mount (`/llm/v1/chat/completions`).
    void handleNodeRequest(gateway, req, res, { url: req.originalUrl }).then((response) => writeGatewayResponse(res, response));
  };
}
