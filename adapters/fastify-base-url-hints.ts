/**
 * The plugin's `baseUrlHints` routes: the gateway's endpoints without their
 * `/v1` (`/chat/completions`, `/models/:id`, ...), answered by the core with
 * its 404 in the caller's format, which says to add `/v1` to the client's
 * base URL. Declared in the plugin's own scope, so the body stays unread.
 */
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../src/gateway.js';
import { ENDPOINT_ROUTES_WITHOUT_V1 } from '../src/match-endpoint.js';
import { createFastifyRoute } from './fastify-route.js';

/** Declares the routes on `scope` (under its prefix). */
export function addBaseUrlHintRoutes(scope: FastifyInstance, gateway: Gateway): void {
  // The whole URL, so that the hint names the path under the prefix (`/ai/v1/chat/completions`).
  const route = createFastifyRoute(gateway, (request) => request.url);
  for (const path of ENDPOINT_ROUTES_WITHOUT_V1) scope.all(path, route);
}
