/**
 * `modelgate/node`: the gateway as a plain `node:http` request listener, and
 * the two helpers every adapter shares: Node request → `GatewayRequest`, and
 * `GatewayResponse` → Node response (flushed per event, paced by `drain`,
 * stopped when the client leaves).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGateway, type Gateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/gateway-options.js';
import { DEFAULT_MAX_BODY_BYTES, tooLargeError } from '../src/read-json-body.js';
import type { GatewayRequest, GatewayResponse } from '../src/types.js';

/** A gateway, or the options to create one. */
export type GatewayOrOptions = Gateway | GatewayOptions;

/** Accepts a gateway or its options, like every adapter entry point. */
export function toGateway(value: GatewayOrOptions): Gateway {
  return typeof (value as Gateway).handle === 'function' ? (value as Gateway) : createGateway(value as GatewayOptions);
}

/**
 * Reads a request body up to `limit` bytes. Rejects with a 413
 * `GatewayError` as soon as the limit is passed (or announced by
 * `content-length`), without buffering the rest.
 */
export function readRawBody(req: IncomingMessage, limit: number = DEFAULT_MAX_BODY_BYTES): Promise<Uint8Array> {
  const announced = Number(req.headers['content-length']);
  if (Number.isFinite(announced) && announced > limit) {
    req.resume();
    return Promise.reject(tooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        reject(tooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once('error', reject);
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

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Builds the core's request, reading the body when a framework has not:
 * bytes a framework kept (`rawBody`) win, then a body parser's result when
 * the stream was consumed, else the raw bytes are read here (up to `limit`).
 * Rejects with a 413 `GatewayError` over the limit.
 */
export async function readGatewayRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; parsedBody?: unknown; rawBody?: string | Uint8Array; limit?: number } = {},
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
  const rawBody = await readRawBody(req, options.limit);
  return toGatewayRequest(req, res, { ...base, rawBody });
}

/** Builds the core's request from a Node request. `body`/`rawBody` come from the framework when it read them. */
export function toGatewayRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; body?: unknown; rawBody?: Uint8Array } = {},
): GatewayRequest {
  const request: GatewayRequest = {
    method: req.method ?? 'GET',
    url: options.url ?? req.url ?? '/',
    headers: req.headers,
    signal: clientSignal(res),
  };
  if (options.rawBody !== undefined) request.rawBody = options.rawBody;
  else if (options.body !== undefined) request.body = options.body;
  return request;
}

type Flushable = ServerResponse & { flush?: () => void };

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes chunks one by one (the relay makes one per upstream read), waiting for `drain` (backpressure) and flushing each (compression middlewares). */
async function writeChunks(res: Flushable, body: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  try {
    while (!res.destroyed) {
      const next = await iterator.next();
      if (next.done) break;
      const drained = res.write(next.value);
      res.flush?.();
      if (!drained) await waitForDrain(res);
    }
  } finally {
    // Stopping early (client gone) tells the relay to abort its upstream.
    if (res.destroyed) await iterator.return?.();
  }
}

/** Writes a `GatewayResponse` to a Node response. Resolves when done; never rejects. */
export async function writeGatewayResponse(res: ServerResponse, response: GatewayResponse): Promise<void> {
  try {
    if (response.type === 'json') {
      const text = JSON.stringify(response.body);
      res.writeHead(response.status, {
        ...response.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
    res.writeHead(response.status, response.headers);
    if (response.body instanceof Uint8Array) {
      res.end(response.body);
      return;
    }
    // Send the head now: SSE clients wait for it before reading events.
    res.flushHeaders();
    await writeChunks(res, response.body);
    if (!res.destroyed) res.end();
  } catch {
    // The client went away or the body failed after the head was sent: nothing left to tell it.
    if (!res.destroyed) res.destroy();
  }
}

/**
 * A `node:http` request listener serving every gateway route.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createNodeHandler } from 'modelgate/node';
 * createServer(createNodeHandler({ auth: { keys: ['sk-local'] } })).listen(8787);
 */
export function createNodeHandler(gatewayOrOptions: GatewayOrOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const gateway = toGateway(gatewayOrOptions);
  const limit = gateway.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (req, res) => {
    void handleNodeRequest(gateway, req, res, { limit }).then((response) => writeGatewayResponse(res, response));
  };
}

/**
 * Runs the whole gateway for a Node request and returns the response to
 * write. Body read failures (413) come back as error responses. Never rejects.
 */
export async function handleNodeRequest(
  gateway: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; parsedBody?: unknown; rawBody?: string | Uint8Array; limit?: number } = {},
): Promise<GatewayResponse> {
  let request: GatewayRequest;
  try {
    request = await readGatewayRequest(req, res, options);
  } catch (error) {
    const ctx = gateway.begin(toGatewayRequest(req, res, options.url !== undefined ? { url: options.url } : {}));
    return gateway.finish(ctx, gateway.renderError(ctx, error));
  }
  return gateway.handle(request);
}

export { createGateway } from '../src/gateway.js';
export type { Gateway } from '../src/gateway.js';
export type { GatewayOptions } from '../src/gateway-options.js';
