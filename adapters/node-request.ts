/**
 * Node request → the core's `GatewayRequest`: the body taken from a
 * framework that read it, or left for the gateway to read within its limit
 * once the caller is authenticated, and a signal that fires when the client
 * leaves. Shared by every adapter.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyCutError, bodyTimeoutError, DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, tooLargeError } from '../src/read-json-body.js';
import type { GatewayContext } from '../src/gateway-context.js';
import { loadRequestBody } from '../src/load-request-body.js';
import type { GatewayRequest, GatewayResponse } from '../src/types.js';
import { AbortTrigger } from '../src/signals/abort-source.js';
import { type RequestFields, withLightSignal } from './light-request.js';
import { closeForUnreadBody } from './unread-body.js';

/**
 * Reads a request body up to `limit` bytes within `timeoutMs` (default
 * 60000; 0 disables). Rejects with a 413 `GatewayError` as soon as the
 * limit is passed (or announced by `content-length`), without buffering the
 * rest, and with a 408 (whose response closes the connection) when the body
 * has not fully arrived in time: a client trickling its body is cut rather
 * than held forever.
 */
export function readRawBody(
  req: IncomingMessage,
  limit: number = DEFAULT_MAX_BODY_BYTES,
  timeoutMs: number = DEFAULT_BODY_TIMEOUT_MS,
): Promise<Uint8Array> {
  const announced = Number(req.headers['content-length']);
  if (Number.isFinite(announced) && announced > limit) {
    req.resume();
    return Promise.reject(tooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    // Every listener goes when the read is over: the request lives as long as its response (a stream
    // may run for minutes), and listeners left on it would keep the chunks and this closure alive.
    const stop = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        stop();
        req.resume();
        reject(tooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        stop();
        // Not resumed: the 408's `connection: close` ends the exchange instead of reading on.
        req.pause();
        reject(bodyTimeoutError(timeoutMs));
      }, timeoutMs);
    }
    const onEnd = (): void => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      stop();
      reject(bodyCutError(error));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** An AbortSignal that fires when the client goes away before the response ended. */
export function clientSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * With observability on: when the response closes without the gateway having
 * answered (the app answered between composable steps), the request's span,
 * metrics and log line end with the status the app sent. Holds the observer
 * only, not the context.
 */
export function endObservationOnClose(ctx: GatewayContext, res: ServerResponse): void {
  const observer = ctx.observer;
  // Only when the app sent a head: a client leaving while the gateway still works is ended by the gateway's own answer.
  if (observer) res.once('close', () => {
    if (res.headersSent) observer.closed(res.statusCode);
  });
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a framework kept of the body: its bytes (`keepRawBody`, a raw-body plugin), or what its parser made of them. */
export interface FrameworkBody {
  parsedBody?: unknown;
  rawBody?: string | Uint8Array;
}

/** Where the body comes from, and the limits it is read within. */
export interface NodeBodyOptions {
  url?: string;
  /** What the framework kept of the body, asked when the request is built and again when the gateway reads the body. */
  frameworkBody?: () => FrameworkBody;
  limit?: number;
  bodyTimeoutMs?: number;
}

const toBytes = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? Buffer.from(body) : body);

/**
 * A body a framework already read: its bytes, or what its parser made of
 * them (within the gateway's own limit, the parser's may be larger, as far
 * as the size was announced). Undefined while the stream is unread.
 */
function frameworkRead(req: IncomingMessage, framework: FrameworkBody, limit: number): { rawBody: Uint8Array } | { body: unknown } | undefined {
  if (framework.rawBody !== undefined) return { rawBody: toBytes(framework.rawBody) };
  if (!req.readableEnded) return undefined;
  const announced = Number(req.headers['content-length']);
  if (Number.isFinite(announced) && announced > limit) throw tooLargeError(limit);
  return { body: framework.parsedBody };
}

/**
 * Builds the core's request without reading the body: bytes or a parsed
 * body the framework already has are used as they are; otherwise the
 * request's `readBody` reads the raw bytes (up to `limit`, within
 * `bodyTimeoutMs`) when the gateway asks, which it does only for an
 * authenticated caller. Throws a 413 `GatewayError` when a framework read
 * a body announced over the limit.
 */
export function deferGatewayRequest(req: IncomingMessage, res: ServerResponse, options: NodeBodyOptions = {}): GatewayRequest {
  const base = { ...(options.url !== undefined ? { url: options.url } : {}) };
  if (!BODY_METHODS.has(req.method ?? 'GET')) return toGatewayRequest(req, res, base);
  const limit = options.limit ?? DEFAULT_MAX_BODY_BYTES;
  const read = frameworkRead(req, options.frameworkBody?.() ?? {}, limit);
  if (read !== undefined) return toGatewayRequest(req, res, { ...base, ...read });
  const request = toGatewayRequest(req, res, base);
  request.readBody = async () => {
    // An app may run its own body parser between the gateway's steps: use what it kept.
    const meanwhile = frameworkRead(req, options.frameworkBody?.() ?? {}, limit);
    if (meanwhile === undefined) return readRawBody(req, limit, options.bodyTimeoutMs);
    if ('rawBody' in meanwhile) return meanwhile.rawBody;
    if (meanwhile.body === undefined) {
      // The app's fault, not the client's (a 500, reported to `onError`): say what to change.
      throw new Error("modelgate: the request body was read between the gateway's steps by something that left neither its bytes (req.rawBody) nor what it parsed (req.body); run body parsers before the gateway's steps, or let the gateway read the body.");
    }
    return Buffer.from(JSON.stringify(meanwhile.body));
  };
  return request;
}

/**
 * Builds the core's request, reading the body when a framework has not:
 * bytes a framework kept (`rawBody`) win, then a body parser's result when
 * the stream was consumed, else the raw bytes are read here (up to `limit`,
 * within `bodyTimeoutMs`). Rejects with a 413 `GatewayError` over the
 * limit, a 408 past the time-out. The adapters use {@link deferGatewayRequest}
 * instead, which leaves the body unread until the caller is authenticated.
 */
export async function readGatewayRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; parsedBody?: unknown; rawBody?: string | Uint8Array; limit?: number; bodyTimeoutMs?: number } = {},
): Promise<GatewayRequest> {
  const { parsedBody, rawBody, ...rest } = options;
  const request = deferGatewayRequest(req, res, { ...rest, frameworkBody: () => ({ parsedBody, ...(rawBody !== undefined ? { rawBody } : {}) }) });
  await loadRequestBody(request);
  return request;
}

/**
 * Closes the connection after the answer to a request whose body nothing
 * read, when that body may be large (see `unread-body.ts`): Node then stops
 * once the answer is sent instead of reading the rest to reuse the connection.
 */
export function closeIfBodyUnread(req: IncomingMessage, response: GatewayResponse): GatewayResponse {
  // Never flowing and not complete: no framework, no gateway read touched it, and part of it is still on the way.
  if (req.readableFlowing !== null || req.complete) return response;
  const length = req.headers['content-length'];
  return closeForUnreadBody(response, length, req.headers['transfer-encoding'] !== undefined);
}

/** Builds the core's request from a Node request. `body`/`rawBody` come from the framework when it read them. */
export function toGatewayRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; body?: unknown; rawBody?: Uint8Array } = {},
): GatewayRequest {
  const abort = new AbortTrigger();
  // A client may have left already (while a body parser or an async middleware of the app ran): its
  // 'close' is over, so no listener would ever hear it.
  if (res.destroyed && !res.writableFinished) abort.abort();
  else
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
  const fields: RequestFields = { method: req.method ?? 'GET', url: options.url ?? req.url ?? '/', headers: req.headers };
  if (options.rawBody !== undefined) fields.rawBody = options.rawBody;
  else if (options.body !== undefined) fields.body = options.body;
  return withLightSignal(fields, abort);
}
