/**
 * The Express error handler of the gateway's paths: an error an earlier
 * middleware passed on for a `/v1` path (the body parser's: malformed JSON,
 * a body over `express.json()`'s limit, an unsupported charset or encoding;
 * or any other) is answered in the caller's interface format, as the gateway
 * answers it itself, instead of Express's HTML error page with its stack
 * trace. `expressGateway(...)` carries it (it is an array of the gateway's
 * middleware and this handler), so `app.use(mg)` is enough; other paths'
 * errors go on to the app's own error handlers.
 */
import type { NextFunction, Request, Response } from 'express';
import { toGatewayError } from '../src/errors.js';
import { fromBodyParserError } from './body-parser-error.js';
import { writeGatewayResponse } from './node-response.js';
import { type GatewaySource, parserErrorResponse } from './parser-error-response.js';
import { isV1Path } from './v1-path.js';

/** An Express error handler (four parameters: Express tells error handlers by `fn.length`). */
export type ExpressErrorHandler = (error: unknown, req: Request, res: Response, next: NextFunction) => void;

/**
 * The handler, shared by `expressGateway(...)` and `expressGatewayErrors`.
 * A body parser's 4xx keeps its status and reads as the gateway's own
 * (400 `Request body is not valid JSON: …`, 413, 415); another error with
 * a 4xx status keeps it and its exposed message; anything else is a 500
 * that says nothing of the error. Every one reaches `onError` (the
 * original as its `cause`) when the gateway is given.
 *
 * @internal
 */
export function createExpressErrorHandler(gateway: GatewaySource | undefined): ExpressErrorHandler {
  return function modelgateErrors(error: unknown, req: Request, res: Response, next: NextFunction): void {
    // Once the head is out, only Express's final handler can end the response (it destroys the socket).
    if (!isV1Path(req.path) || res.headersSent) return next(error);
    const gatewayError = fromBodyParserError(error) ?? toGatewayError(error);
    void writeGatewayResponse(res, parserErrorResponse(gateway, req, res, req.url, gatewayError));
  };
}

/**
 * Creates the error handler on its own. `expressGateway(...)` already
 * includes it, so `app.use(mg)` needs no second mount; this is for apps
 * that mount only the per-endpoint handlers or the steps at `/v1` paths
 * (`app.post('/v1/chat/completions', mg.authenticate, ..., mg.dispatch)`).
 * Mount it after them, at the same path.
 *
 * @param gateway `expressGateway(...)`'s result, or a gateway; optional. With it, these answers carry its request id and reach its `onError` and metrics.
 * @example
 * const mg = expressGateway({ auth: { keys: [process.env.MODELGATE_KEY!] } });
 * app.use(express.json({ limit: '32mb', verify: keepRawBody }));
 * app.post('/v1/chat/completions', mg.authenticate, audit, mg.dispatch);
 * app.use(expressGatewayErrors(mg));
 */
export function expressGatewayErrors(gateway?: GatewaySource): ExpressErrorHandler {
  return createExpressErrorHandler(gateway);
}
