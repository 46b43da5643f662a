/**
 * `expressGatewayErrors()`: an Express error handler that answers the body
 * parser's errors on the gateway's paths (malformed JSON, a body over
 * `express.json()`'s limit, an unsupported charset or encoding) in the
 * caller's interface format, as the gateway answers them itself, instead of
 * Express's HTML error page. Other paths and other errors go on to the
 * app's own error handlers.
 */
import type { NextFunction, Request, Response } from 'express';
import { fromBodyParserError } from './body-parser-error.js';
import { writeGatewayResponse } from './node-response.js';
import { type GatewaySource, parserErrorResponse } from './parser-error-response.js';
import { isV1Path } from './v1-path.js';

/** An Express error handler (four parameters: Express tells error handlers by `fn.length`). */
export type ExpressErrorHandler = (error: unknown, req: Request, res: Response, next: NextFunction) => void;

/**
 * Creates the error handler. Mount it after the gateway (at the same path),
 * with `express.json()` before the gateway. Pass the gateway so that these
 * answers carry its request id and reach its `onError` and metrics.
 *
 * @param gateway `expressGateway(...)`'s result, or a gateway; optional.
 * @example
 * const mg = expressGateway({ auth: { keys: [process.env.MODELGATE_KEY!] } });
 * app.use(express.json({ limit: '32mb', verify: keepRawBody }));
 * app.use(mg);
 * app.use(expressGatewayErrors(mg));
 */
export function expressGatewayErrors(gateway?: GatewaySource): ExpressErrorHandler {
  return function modelgateErrors(error: unknown, req: Request, res: Response, next: NextFunction): void {
    const gatewayError = isV1Path(req.path) && !res.headersSent ? fromBodyParserError(error) : undefined;
    if (!gatewayError) return next(error);
    void writeGatewayResponse(res, parserErrorResponse(gateway, req, res, req.url, gatewayError));
  };
}
