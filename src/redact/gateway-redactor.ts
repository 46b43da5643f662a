/**
 * The one redactor of a gateway: the secrets and addresses of every
 * upstream its routes name (primaries and fallbacks) and the extra secrets
 * of `options.secrets`.
 * Built once per gateway; its matcher is compiled on the first error.
 *
 * @internal
 */
import { type Route, routeUpstreams } from '../routing/routes.js';
import type { Upstream } from '../upstreams/upstream.js';
import { createRedactor, type Redactor } from './redactor.js';
import { serverAddresses } from './upstream-addresses.js';

function upstreamsOf(routes: readonly Route[]): Set<Upstream> {
  const upstreams = new Set<Upstream>();
  for (const route of routes) for (const upstream of routeUpstreams(route)) upstreams.add(upstream);
  return upstreams;
}

/** Where `upstream` lives, as its error bodies may quote it: its `addresses()`, else its `server`'s. */
export function addressesOf(upstream: Upstream): readonly string[] {
  if (typeof upstream.addresses === 'function') return upstream.addresses();
  return upstream.server ? serverAddresses(upstream.server) : [];
}

/** The redactor of one upstream: its secrets and addresses. */
export function upstreamRedactor(upstream: Upstream): Redactor {
  return createRedactor(typeof upstream.secrets === 'function' ? upstream.secrets() : [], addressesOf(upstream));
}

/** The redactor for `routes`' upstreams (their secrets and addresses) plus `extra` secrets. */
export function gatewayRedactor(routes: readonly Route[], extra: readonly string[] = []): Redactor {
  const secrets: string[] = [...extra];
  const addresses: string[] = [];
  for (const upstream of upstreamsOf(routes)) {
    if (typeof upstream.secrets === 'function') secrets.push(...upstream.secrets());
    addresses.push(...addressesOf(upstream));
  }
  return createRedactor(secrets, addresses);
}

/**
 * The redactor for one request: the gateway's, plus the caller's key when
 * the route forwards it upstream (key passthrough).
 */
export function requestRedactor(gatewayRedactor: Redactor, ctx: { route?: { keyPassthrough: boolean } | undefined; credential?: string | undefined }): Redactor {
  return ctx.route?.keyPassthrough ? gatewayRedactor.with(ctx.credential) : gatewayRedactor;
}
