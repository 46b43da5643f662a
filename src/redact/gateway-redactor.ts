/**
 * The one redactor of a gateway: the secrets of every upstream its routes
 * name (primaries and fallbacks) and the extra ones of `options.secrets`.
 * Built once per gateway; its matcher is compiled on the first error.
 *
 * @internal
 */
import { type Route, routeUpstreams } from '../routing/routes.js';
import type { Upstream } from '../upstreams/upstream.js';
import { createRedactor, type Redactor } from './redactor.js';

function upstreamsOf(routes: readonly Route[]): Set<Upstream> {
  const upstreams = new Set<Upstream>();
  for (const route of routes) for (const upstream of routeUpstreams(route)) upstreams.add(upstream);
  return upstreams;
}

/** The redactor for `routes`' upstreams plus `extra`. */
export function gatewayRedactor(routes: readonly Route[], extra: readonly string[] = []): Redactor {
  const secrets: string[] = [...extra];
  for (const upstream of upstreamsOf(routes)) {
    if (typeof upstream.secrets === 'function') secrets.push(...upstream.secrets());
  }
  return createRedactor(secrets);
}

/**
 * The redactor for one request: the gateway's, plus the caller's key when
 * the route forwards it upstream (key passthrough).
 */
export function requestRedactor(gatewayRedactor: Redactor, ctx: { route?: { keyPassthrough: boolean } | undefined; credential?: string | undefined }): Redactor {
  return ctx.route?.keyPassthrough ? gatewayRedactor.with(ctx.credential) : gatewayRedactor;
}
