/**
 * The route handler of the plugin's own `/v1/*` routes: the whole gateway
 * for one request, as lean as the node:http adapter. These routes run no
 * step hooks of the app's (the composable steps are for routes of its own),
 * so nothing needs the per-request context the hooks keep: the request goes
 * straight to `handleNodeRequest` (body read within the limit and time-out,
 * a signal for the client leaving, `gateway.handle`), and the answer to the
 * reply. A callback-style handler (it returns nothing and answers later)
 * saves Fastify the promise it would wrap and await for an async one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../src/gateway.js';
import { sendGatewayResponse } from './fastify-reply.js';
import { handleNodeRequest } from './node-http.js';

/** Where the URL the core sees comes from. */
type UrlOf = (request: FastifyRequest) => string;

/** A Fastify route handler serving every gateway endpoint; it always answers. */
export function createFastifyRoute(gateway: Gateway, urlOf: UrlOf): (request: FastifyRequest, reply: FastifyReply) => void {
  const { maxBodyBytes: limit, bodyTimeoutMs } = gateway.options;
  return function modelgateRoute(request, reply) {
    // Bytes a raw-body plugin kept win; otherwise the stream is still unread (the plugin's no-op parser).
    const rawBody = (request as FastifyRequest & { rawBody?: string | Uint8Array }).rawBody;
    handleNodeRequest(gateway, request.raw, reply.raw, { url: urlOf(request), parsedBody: request.body, rawBody, limit, bodyTimeoutMs })
      .then((response) => sendGatewayResponse(reply, response))
      // As for an async handler that throws (a header value Node refuses...): Fastify's error handling answers.
      .catch((error: unknown) => {
        if (!reply.sent) void reply.send(error);
        else reply.log.error({ err: error }, 'modelgate: the answer failed after its head was sent');
      });
  };
}
