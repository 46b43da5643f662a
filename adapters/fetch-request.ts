/**
 * Web `Request` → the core's `GatewayRequest`: the path from its `/v1`
 * segment on, lower-case headers, the body left for the gateway to read
 * within its limit once the caller is authenticated, and the request's own
 * `signal` (fired by the server when the client leaves).
 */
import { bodyCutError, bodyTimeoutError, DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, tooLargeError } from '../src/read-json-body.js';
import { type GatewayError, isGatewayError } from '../src/errors.js';
import { loadRequestBody } from '../src/load-request-body.js';
import type { GatewayRequest, GatewayResponse, IncomingHeaders } from '../src/types.js';
import { closeForUnreadBody } from './unread-body.js';
import { fromV1Segment } from './v1-path.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The path and query the gateway serves: from the first `/v1` segment of
 * the URL's path on (`/api/v1/models?limit=5` → `/v1/models?limit=5`), so a
 * handler mounted under a prefix (a Next.js `app/api/v1/[...path]` route, a
 * Hono sub-app) needs no configuration. Paths without one are passed as they
 * are (the gateway answers 404).
 */
export function gatewayPath(url: string): string {
  const plain = PLAIN_URL.exec(url)?.[1];
  if (plain !== undefined && !plain.includes('/.')) return fromV1Segment(plain);
  const parsed = new URL(url);
  return fromV1Segment(parsed.pathname + parsed.search);
}

/**
 * An absolute http(s) URL whose path and query the URL parser would leave as
 * they are (what servers hand over for ordinary requests): no dot segments,
 * no percent-escapes in the path, no characters it would escape, no
 * fragment, no empty query. Those are sliced instead of parsed; anything
 * else goes through `new URL` (`gatewayPath` runs once per request).
 */
const PLAIN_URL = /^https?:\/\/[^/?#\\]*(\/[\w\-.~!$&()*+,;=:@/]*(?:\?[\w\-.~!$&()*+,;=:@/?%]+)?)$/i;

function toHeaders(headers: Headers): IncomingHeaders {
  const record: IncomingHeaders = {};
  // `Headers` iterates lower-case names, repeated values already joined with ", ".
  for (const [name, value] of headers) record[name] = value;
  return record;
}

/**
 * Reads a `Request` body up to `limit` bytes. Rejects with a 413
 * `GatewayError` when `content-length` announces more, or, for a body of
 * unannounced length, as soon as the limit is passed, cancelling the rest unread.
 * `onReader` receives the stream's reader when the body is read chunk by
 * chunk (a caller that gives up waiting cancels the read through it).
 */
export async function readRequestBody(
  request: Request,
  limit: number = DEFAULT_MAX_BODY_BYTES,
  onReader?: (reader: ReadableStreamDefaultReader<Uint8Array>) => void,
): Promise<Uint8Array> {
  const announced = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(announced) && announced > limit) {
    await request.body?.cancel().catch(() => {});
    throw tooLargeError(limit);
  }
  // A declared length within the limit: the server's HTTP parser holds the body to it, so read it
  // whole (`arrayBuffer()` has fast paths, e.g. @hono/node-server reads the Node request directly).
  if (Number.isFinite(announced)) return new Uint8Array(await request.arrayBuffer());
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  onReader?.(reader);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLargeError(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The core's request without its body (for error responses when the body could not be read). */
export function toGatewayRequest(request: Request): GatewayRequest {
  return { method: request.method, url: gatewayPath(request.url), headers: toHeaders(request.headers), signal: request.signal };
}

/**
 * Reads the body within `timeoutMs` (0 disables): a 408 `GatewayError`
 * (its response closes the connection) when it has not fully arrived in
 * time, a 400 when the client stopped sending it.
 */
function readBodyInTime(request: Request, limit: number | undefined, timeoutMs: number): Promise<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const reading = readRequestBody(request, limit, (taken) => {
    reader = taken;
  });
  const failed = (error: unknown): GatewayError => (isGatewayError(error) ? error : bodyCutError(error));
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    return reading.catch((error: unknown) => {
      throw failed(error);
    });
  }
  // One promise settled by whichever comes first. After the time-out, a body read chunk by chunk
  // is cancelled (its source told to stop); one read whole (`content-length` given) cannot be,
  // and ends when the server closes the connection (the 408 asks it to).
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = bodyTimeoutError(timeoutMs);
      reject(error);
      reader?.cancel(error).catch(() => {});
    }, timeoutMs);
    reading.then(
      (body) => {
        clearTimeout(timer);
        resolve(body);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(failed(error));
      },
    );
  });
}

/**
 * Builds the core's request without reading the body: for body methods its
 * `readBody` reads it (up to `limit`, within `bodyTimeoutMs`, default 60 s)
 * when the gateway asks, which it does only for an authenticated caller.
 */
export function deferGatewayRequest(request: Request, limit?: number, bodyTimeoutMs: number = DEFAULT_BODY_TIMEOUT_MS): GatewayRequest {
  // The app's fault, not the client's (a 500, reported to `onError`): say what to change.
  if (request.bodyUsed) throw new Error('modelgate: the request body was already read; pass the handler the request before anything reads its body, or a clone() of it.');
  const gatewayRequest = toGatewayRequest(request);
  if (BODY_METHODS.has(request.method)) gatewayRequest.readBody = () => readBodyInTime(request, limit, bodyTimeoutMs);
  return gatewayRequest;
}

/**
 * Builds the core's request, reading the body of body methods (up to
 * `limit`, within `bodyTimeoutMs`, default 60 s). Rejects with a 413
 * `GatewayError` over the limit, a 408 when the body is late. The fetch
 * handler uses {@link deferGatewayRequest} instead, which leaves the body
 * unread until the caller is authenticated.
 */
export async function readGatewayRequest(request: Request, limit?: number, bodyTimeoutMs: number = DEFAULT_BODY_TIMEOUT_MS): Promise<GatewayRequest> {
  const gatewayRequest = deferGatewayRequest(request, limit, bodyTimeoutMs);
  await loadRequestBody(gatewayRequest);
  return gatewayRequest;
}

/**
 * Closes the connection after the answer to a request whose body nothing
 * read, when that body may be large (see `unread-body.ts`): a Node server
 * (`@hono/node-server`) then stops instead of reading the rest.
 */
export function closeIfBodyUnread(request: Request, response: GatewayResponse): GatewayResponse {
  if (request.bodyUsed || request.body === null) return response;
  return closeForUnreadBody(response, request.headers.get('content-length'), request.headers.has('transfer-encoding'));
}
