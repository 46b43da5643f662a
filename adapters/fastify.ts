/**
 * `modelgate/fastify`: mount the gateway in a Fastify 5 or 4 app.
 *
 * `app.register(fastifyGateway, options)` serves `/v1/*` under the usual
 * `prefix`, in an encapsulated context of its own that reads request bodies
 * itself (within the gateway's limit), whatever body parsing the app does.
 * The steps are offered as hooks on `app.modelgate`. All logic lives in the core.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Gateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/gateway-options.js';
import { createFastifyHooks, type FastifyGatewayHooks } from './fastify-hooks.js';
import { readFastifyOptions } from './fastify-options.js';
import { createFastifyRoute } from './fastify-route.js';
import { addBaseUrlHintRoutes } from './fastify-base-url-hints.js';

/** Options of the plugin besides Fastify's own `prefix`. */
interface PluginOptions {
  /** Fastify's usual route prefix: the gateway serves `<prefix>/v1/*`. Default: none. */
  prefix?: string;
  /** Decorate the app with the hooks as `app.modelgate` (default true; false for a second gateway in one app). */
  decorate?: boolean;
  /**
   * Answer the gateway's endpoints reached without `/v1` (`<prefix>/chat/completions`,
   * `/responses`, `/messages`, `/models` and their paths: a client whose base URL
   * lacks `/v1`) with the gateway's 404 in the caller's format, saying to add `/v1`
   * to the base URL, instead of Fastify's "Route ... not found". Default false:
   * the plugin then declares routes at those paths, which an app's own route at
   * the same method and path would collide with.
   */
  baseUrlHints?: boolean;
  /**
   * `app.close()` shuts the gateway down gracefully first (`gateway.shutdown`):
   * new model calls get 503 / 529 and streams still open after this many ms
   * end with an error event. Default 10000.
   */
  shutdownGraceMs?: number;
}

/** The gateway's options, or a gateway (as is, or as `{ gateway }` beside the plugin's own options), plus the plugin's own. */
export type FastifyGatewayOptions = (GatewayOptions | Gateway | { gateway: Gateway }) & PluginOptions;

declare module 'fastify' {
  interface FastifyInstance {
    /** modelgate's steps as hooks, and its per-endpoint handlers (set by `fastifyGateway`). */
    modelgate: FastifyGatewayHooks;
  }
}

const plugin: FastifyPluginAsync<FastifyGatewayOptions> = async (app: FastifyInstance, options) => {
  // Checked before anything is registered: a GatewayConfigError rejects `register` / `ready`.
  const gatewayOrOptions = readFastifyOptions(options);
  const prefix = options.prefix ?? '';
  const hooks = createFastifyHooks(gatewayOrOptions);
  if (options.decorate !== false) app.decorate('modelgate', hooks);
  // preClose runs before Fastify waits for the requests in flight (streams included), so they end within the grace period.
  const graceMs = options.shutdownGraceMs;
  app.addHook('preClose', async () => {
    await hooks.gateway.shutdown(graceMs === undefined ? {} : { graceMs });
  });

  // The routes live in a child context: its body handling does not leak into the app.
  await app.register(
    async (scope) => {
      // Whatever the app parses (its own parsers, Fastify's JSON one): here the body stays
      // unread, and the core reads it within its limit and answers 413/415 in the caller's format.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request: FastifyRequest, _payload: unknown, done: (error: null) => void) => done(null));
      const full = scope.prefix;
      const route = createFastifyRoute(hooks.gateway, (request) => request.url.slice(full.length));
      scope.all('/v1', route);
      scope.all('/v1/*', route);
      if (options.baseUrlHints === true) addBaseUrlHintRoutes(scope, hooks.gateway);
    },
    { prefix },
  );
};

/**
 * The Fastify plugin. Wrapped in `fastify-plugin` so that `app.modelgate`
 * reaches the app; the routes and their body handling stay encapsulated.
 *
 * @example
 * await app.register(fastifyGateway, { auth: { keys: [process.env.MODELGATE_KEY!] }, prefix: '/ai' });
 */
export const fastifyGateway = fp(plugin, { name: 'modelgate', fastify: '4.x || 5.x' });

export { createFastifyHooks } from './fastify-hooks.js';
export type { FastifyGatewayHook, FastifyGatewayHooks, FastifySteps } from './fastify-hooks.js';
export { createGateway } from '../src/gateway.js';
export type { Gateway } from '../src/gateway.js';
export type { GatewayOptions } from '../src/gateway-options.js';
