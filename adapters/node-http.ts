/**
 * `modelgate/node`: the gateway as a plain `node:http` request listener.
 * Also exports the two halves every adapter shares, for other frameworks:
 * Node request → `GatewayRequest` (`./node-request.ts`) and
 * `GatewayResponse` → Node response (`./node-response.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gateway } from '../src/gateway.js';
import type { ShutdownOptions } from '../src/lifecycle/shutdown.js';
import { DEFAULT_MAX_BODY_BYTES } from '../src/read-json-body.js';
import type { GatewayRequest, GatewayResponse } from '../src/types.js';
import { closeIfBodyUnread, deferGatewayRequest, toGatewayRequest } from './node-request.js';
import { writeGatewayResponse } from './node-response.js';
import { type GatewayOrOptions, toGateway } from './to-gateway.js';

export { clientSignal, closeIfBodyUnread, deferGatewayRequest, readGatewayRequest, readRawBody, toGatewayRequest } from './node-request.js';
export type { FrameworkBody, NodeBodyOptions } from './node-request.js';
export { writeGatewayResponse } from './node-response.js';

export { type GatewayOrOptions, toGateway } from './to-gateway.js';

/** The request listener, with its gateway and the way to shut it down. */
export interface NodeHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  readonly gateway: Gateway;
  /**
   * Graceful shutdown (`gateway.shutdown`): new model calls get 503 / 529,
   * calls in progress run for up to `graceMs`, streams still open then end
   * with an error event. Call it on SIGTERM, then close the HTTP server.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
}

/**
 * A `node:http` request listener serving every gateway route.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createNodeHandler } from 'modelgate/node';
 * createServer(createNodeHandler({ auth: { keys: ['sk-local'] } })).listen(8787);
 */
export function createNodeHandler(gatewayOrOptions: GatewayOrOptions): NodeHandler {
  const gateway = toGateway(gatewayOrOptions, 'createNodeHandler');
  const limit = gateway.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { bodyTimeoutMs } = gateway.options;
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void handleNodeRequest(gateway, req, res, { limit, ...(bodyTimeoutMs !== undefined ? { bodyTimeoutMs } : {}) }).then((response) => writeGatewayResponse(res, response));
  };
  return Object.assign(handler, { gateway, shutdown: (options?: ShutdownOptions) => gateway.shutdown(options) });
}

/**
 * Runs the whole gateway for a Node request and returns the response to
 * write. The body is read only once the caller's key verified (and a model
 * call has its place); a request answered without it (401, 404, ...) and
 * whose body may be large closes the connection instead of reading it.
 * Body read failures (413, 408) come back as error responses. Never rejects.
 */
export async function handleNodeRequest(
  gateway: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; parsedBody?: unknown; rawBody?: string | Uint8Array; limit?: number; bodyTimeoutMs?: number } = {},
): Promise<GatewayResponse> {
  const { parsedBody, rawBody, ...rest } = options;
  let request: GatewayRequest;
  try {
    request = deferGatewayRequest(req, res, { ...rest, frameworkBody: () => ({ parsedBody, ...(rawBody !== undefined ? { rawBody } : {}) }) });
  } catch (error) {
    const ctx = gateway.begin(toGatewayRequest(req, res, options.url !== undefined ? { url: options.url } : {}));
    return gateway.finish(ctx, gateway.renderError(ctx, error));
  }
  return closeIfBodyUnread(req, await gateway.handle(request));
}

export { createGateway } from '../src/gateway.js';
export type { Gateway } from '../src/gateway.js';
export type { GatewayOptions } from '../src/gateway-options.js';
export type { ShutdownOptions } from '../src/lifecycle/shutdown.js';
