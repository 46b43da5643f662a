/**
 * `modelgate/fetch`: the gateway as a Web-standard fetch handler,
 * `(request: Request) => Promise<Response>`, for servers built on the Fetch
 * API: Hono (on Node through `@hono/node-server`), Next.js route handlers on
 * the Node runtime, `Request`/`Response` based routers. It serves the paths
 * under the URL's `/v1` segment; all logic lives in the core.
 */
import type { ShutdownOptions } from '../src/lifecycle/shutdown.js';
import type { Gateway } from '../src/gateway.js';
import { DEFAULT_MAX_BODY_BYTES } from '../src/read-json-body.js';
import type { GatewayRequest } from '../src/types.js';
import { AbortTrigger } from '../src/signals/abort-source.js';
import { closeIfBodyUnread, deferGatewayRequest, toGatewayRequest } from './fetch-request.js';
import { toResponse } from './fetch-response.js';
import { withLightSignal } from './light-request.js';
import { type GatewayOrOptions, toGateway } from './to-gateway.js';

/** A fetch handler serving every gateway route. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Creates the fetch handler. The response never rejects: failures (a body
 * over `maxBodyBytes`, default 32 MB, included) are error responses in the
 * caller's interface format. Streamed answers are a `ReadableStream` body,
 * flushed per event; `request.signal` aborting (the client left) or the body
 * being cancelled aborts the upstream call.
 *
 * @example
 * // Hono on Node
 * const handler = createFetchHandler({ auth: { keys: [process.env.MODELGATE_KEY!] } });
 * app.all('/v1/*', (c) => handler(c.req.raw));
 */
export function createFetchHandler(gatewayOrOptions: GatewayOrOptions): FetchHandler & {
  readonly gateway: Gateway;
  /**
   * Graceful shutdown (`gateway.shutdown`): new model calls get 503 / 529,
   * calls in progress run for up to `graceMs`, streams still open then end
   * with an error event. Call it on SIGTERM, then close the HTTP server.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
} {
  const gateway = toGateway(gatewayOrOptions, 'createFetchHandler');
  const limit = gateway.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const handler = async (request: Request): Promise<Response> => {
    let gatewayRequest: GatewayRequest;
    try {
      // The body stays unread until the caller is authenticated (and a model call has its place).
      gatewayRequest = deferGatewayRequest(request, limit, gateway.options.bodyTimeoutMs);
    } catch (error) {
      const ctx = gateway.begin(toGatewayRequest(request));
      return toResponse(gateway.finish(ctx, gateway.renderError(ctx, error)));
    }
    // A cancelled response body means the client left, as does `request.signal`
    // (not every server fires the latter): either one aborts the upstream call.
    // The gateway listens on a light trigger (see light-request.ts).
    const left = new AbortTrigger();
    const abort = (): void => left.abort();
    if (request.signal.aborted) abort();
    // (No `once` option: an abort fires once anyway, and the option costs a lookup per request.)
    else request.signal.addEventListener('abort', abort);
    gatewayRequest = withLightSignal(gatewayRequest, left);
    return toResponse(closeIfBodyUnread(request, await gateway.handle(gatewayRequest)), abort);
  };
  return Object.assign(handler, { gateway, shutdown: (options?: ShutdownOptions) => gateway.shutdown(options) });
}

export { closeIfBodyUnread, deferGatewayRequest, gatewayPath, readGatewayRequest, readRequestBody, toGatewayRequest } from './fetch-request.js';
export { toReadableStream, toResponse } from './fetch-response.js';
export { createGateway } from '../src/gateway.js';
export type { Gateway } from '../src/gateway.js';
export type { GatewayOptions } from '../src/gateway-options.js';
export type { ShutdownOptions } from '../src/lifecycle/shutdown.js';
