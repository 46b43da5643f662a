/**
 * Node request → the core's `GatewayRequest`: the body read within the
 * gateway's limit (or taken from a framework that read it), and a signal
 * that fires when the client leaves. Shared by every adapter.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyCutError, bodyTimeoutError, DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, tooLargeError } from '../src/read-json-body.js';
import type { GatewayContext } from '../src/gateway-context.js';
import type { GatewayRequest } from '../src/types.js';
import { AbortTrigger } from '../src/signals/abort-source.js';
import { type RequestFields, withLightSignal } from './light-request.js';

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

/**
 * Builds the core's request, reading the body when a framework has not:
 * bytes a framework kept (`rawBody`) win, then a body parser's result when
 * the stream was consumed, else the raw bytes are read here (up to `limit`,
 * within `bodyTimeoutMs`). Rejects with a 413 `GatewayError` over the
 * limit, a 408 past the time-out.
 */
export async function readGatewayRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; parsedBody?: unknown; rawBody?: string | Uint8Array; limit?: number; bodyTimeoutMs?: number } = {},
): Promise<GatewayRequest> {
  const base = { ...(options.url !== undefined ? { url: options.url } : {}) };
  if (!BODY_METHODS.has(req.method ?? 'GET')) return toGatewayRequest(req, res, base);
  if (options.rawBody !== undefined) {
    const rawBody = typeof options.rawBody === 'string' ? Buffer.from(options.rawBody) : options.rawBody;
    return toGatewayRequest(req, res, { ...base, rawBody });
  }
  // A body parser already consumed the stream: use what it parsed, within the
  // gateway's own limit (the parser's may be larger), as far as the size was announced.
  if (req.readableEnded) {
    const announced = Number(req.headers['content-length']);
    const limit = options.limit ?? DEFAULT_MAX_BODY_BYTES;
    if (Number.isFinite(announced) && announced > limit) throw tooLargeError(limit);
    return toGatewayRequest(req, res, { ...base, body: options.parsedBody });
  }
  const rawBody = await readRawBody(req, options.limit, options.bodyTimeoutMs);
  return toGatewayRequest(req, res, { ...base, rawBody });
}

/** Builds the core's request from a Node request. `body`/`rawBody` come from the framework when it read them. */
export function toGatewayRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; body?: unknown; rawBody?: Uint8Array } = {},
): GatewayRequest {
  const abort = new AbortTrigger();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const fields: RequestFields = { method: req.method ?? 'GET', url: options.url ?? req.url ?? '/', headers: req.headers };
  if (options.rawBody !== undefined) fields.rawBody = options.rawBody;
  else if (options.body !== undefined) fields.body = options.body;
  return withLightSignal(fields, abort);
}
