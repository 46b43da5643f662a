/**
 * Gets the JSON body of a request: the framework's parsed body when there is
 * one, else the raw bytes parsed here. Each failure is its own clear 4xx.
 */
import { GatewayError } from './errors.js';
import type { GatewayRequest } from './types.js';

/** Default body limit: the vendor's own 32 MB edge limit (PROTOCOLS A.7). */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

const UTF8 = new TextDecoder('utf-8');

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** True for `application/json` and `application/*+json`, with any parameters. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  // What every SDK sends, decided without building strings.
  if (contentType === 'application/json') return true;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Default of `GatewayOptions.bodyTimeoutMs`: 60 s to receive a whole request body. */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;

/** The 408 for a body that did not arrive in time; the connection is closed after it (the rest of the body is not read). */
export function bodyTimeoutError(timeoutMs: number): GatewayError {
  return new GatewayError('REQUEST_TIMEOUT', `Request body did not arrive within this gateway's ${timeoutMs} ms; send it at once, without pauses.`, {
    chatCode: 'request_timeout',
    headers: { connection: 'close' },
  });
}

/** The 400 for a request body the client stopped sending (connection closed or reset mid-upload): its doing, not a gateway fault. */
export function bodyCutError(cause: unknown): GatewayError {
  return new GatewayError('INVALID_REQUEST', 'Request body ended before it was complete (the connection closed while it was being sent); send the whole body.', { cause });
}

/** The 400 for a body that is not JSON; `detail` is the parser's own message (`Unexpected token } in JSON at position 9`). */
export function invalidJsonError(detail: string | undefined): GatewayError {
  const said = detail ? `: ${detail.replace(/\.$/, '')}` : '';
  return new GatewayError('INVALID_JSON', `Request body is not valid JSON${said}.`);
}

/** The 413 for a body over the limit; the connection is closed after it, so the rest of the body is not read to keep it. */
export function tooLargeError(limit: number): GatewayError {
  return new GatewayError('REQUEST_TOO_LARGE', `Request body is larger than the ${limit}-byte limit of this gateway.`, { headers: { connection: 'close' } });
}

/** Throws `UNSUPPORTED_MEDIA_TYPE` (415) unless the request says its body is JSON: decided from the header, before the body is read. */
export function assertJsonContentType(request: GatewayRequest): void {
  const contentType = headerValue(request.headers['content-type']);
  if (!isJsonContentType(contentType)) {
    throw new GatewayError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type must be application/json${contentType ? `, not ${contentType}` : ''}: send the request body as JSON.`,
    );
  }
}

/**
 * The parsed JSON body. Throws `UNSUPPORTED_MEDIA_TYPE` for a non-JSON
 * content type, `REQUEST_TOO_LARGE` over `maxBodyBytes`, `INVALID_JSON` for
 * bytes that do not parse or a body that is not a JSON object.
 */
export function readJsonBody(request: GatewayRequest, maxBodyBytes: number): unknown {
  assertJsonContentType(request);
  let body = request.body;
  if (request.rawBody !== undefined) {
    if (request.rawBody.byteLength > maxBodyBytes) throw tooLargeError(maxBodyBytes);
    if (request.rawBody.byteLength === 0) throw new GatewayError('INVALID_JSON', 'Request body is empty: send a JSON object.');
    try {
      // TextDecoder drops a leading UTF-8 BOM, as express.json() and co-body do.
      body = JSON.parse(UTF8.decode(request.rawBody));
    } catch (error) {
      throw invalidJsonError(error instanceof SyntaxError ? error.message : undefined);
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('INVALID_JSON', 'Request body must be a JSON object.');
  }
  return body;
}
