/**
 * The errors of the body parsers apps mount before the gateway
 * (`express.json()` is body-parser, `@koa/bodyparser` is co-body; both read
 * with raw-body) as the error the gateway answers itself when it reads a
 * body: the same status, and a message in the same words.
 */
import { GatewayError } from '../src/errors.js';
import { bodyCutError, invalidJsonError, tooLargeError } from '../src/read-json-body.js';

/** The fields these parsers (and http-errors) set on their errors. */
interface ParserError {
  type?: unknown;
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  message?: unknown;
  limit?: unknown;
  charset?: unknown;
  encoding?: unknown;
  name?: unknown;
}

function statusOf(error: ParserError): number | undefined {
  const status = typeof error.status === 'number' ? error.status : error.statusCode;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The `GatewayError` for a client error (4xx) a body parser (or other
 * middleware) threw, or undefined for anything else: server errors and
 * errors without a status stay the app's.
 */
export function fromBodyParserError(value: unknown): GatewayError | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const error = value as ParserError;
  const status = statusOf(error);
  if (status === undefined || status < 400 || status > 499) return undefined;
  switch (error.type) {
    case 'entity.parse.failed':
      return invalidJsonError(text(error.message));
    case 'entity.too.large':
      return typeof error.limit === 'number' ? tooLargeError(error.limit) : new GatewayError('REQUEST_TOO_LARGE', 'Request body is larger than this server accepts.');
    case 'request.aborted':
      return bodyCutError(value);
    case 'request.size.invalid':
      return new GatewayError('INVALID_REQUEST', 'Request body length does not match its Content-Length header: send the whole body, with a matching Content-Length.');
    case 'charset.unsupported':
      return new GatewayError('UNSUPPORTED_MEDIA_TYPE', `Request body charset${text(error.charset) ? ` ${JSON.stringify(error.charset)}` : ''} is not supported: send the JSON body as UTF-8.`);
    case 'encoding.unsupported':
      return new GatewayError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding${text(error.encoding) ? ` ${JSON.stringify(error.encoding)}` : ''} is not supported: send the body uncompressed (or gzip-compressed).`);
  }
  // co-body's JSON errors carry no `type`: a SyntaxError with status 400.
  if (status === 400 && error.name === 'SyntaxError') return invalidJsonError(text(error.message));
  const message = error.expose === false ? undefined : text(error.message);
  return new GatewayError('INVALID_REQUEST', message ?? `The request failed with status ${status}.`, { status, cause: value });
}
