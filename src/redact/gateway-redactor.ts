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
import type { CreationWarning } from '../warn-at-creation.js';
import { allowsFragmentMatching, createRedactor, MIN_FRAGMENT_SECRET_LENGTH, type Redactor } from './redactor.js';
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
  return createRedactor(secretsOf(upstream), addressesOf(upstream));
}

/**
 * The redactor of the errors an upstream's `send` rejects with: its secrets
 * only (a custom upstream may quote its key in its own message). Its
 * addresses are left, so an unnamed upstream's name still reaches `onError`.
 */
export function thrownErrorRedactor(upstream: Upstream): Redactor {
  return createRedactor(secretsOf(upstream), []);
}

function secretsOf(upstream: Upstream): readonly string[] {
  return typeof upstream.secrets === 'function' ? upstream.secrets() : [];
}

/**
 * The redactor for `routes`' upstreams (their secrets and addresses) plus
 * `extra` secrets. An upstream called by its address (`nameIsAddress`: no
 * `name` was given) has that name hidden from clients; configured names
 * are shown as written.
 */
export function gatewayRedactor(routes: readonly Route[], extra: readonly string[] = []): Redactor {
  const secrets: string[] = [...extra];
  const addresses: string[] = [];
  const addressNames: string[] = [];
  for (const upstream of upstreamsOf(routes)) {
    secrets.push(...secretsOf(upstream));
    addresses.push(...addressesOf(upstream));
    if (upstream.nameIsAddress === true) addressNames.push(upstream.name);
  }
  return createRedactor(secrets, addresses, addressNames);
}

/**
 * One warning per upstream name with a key too short or too plain to be found in
 * pieces (a dummy such as `sk-no-key-required`): it is still redacted where
 * quoted whole. The warning names the upstream, never the key.
 */
export function weakSecretWarnings(routes: readonly Route[]): CreationWarning[] {
  const warnings: CreationWarning[] = [];
  const named = new Set<string>();
  for (const upstream of upstreamsOf(routes)) {
    if (named.has(upstream.name) || !secretsOf(upstream).some((secret) => !allowsFragmentMatching(secret))) continue;
    named.add(upstream.name);
    warnings.push({
      event: 'weak_upstream_secret',
      message:
        `modelgate: upstream "${upstream.name}" has a key or credential shorter than ${MIN_FRAGMENT_SECRET_LENGTH} characters or without ` +
        'a mix of letters and digits, so error text is searched for it only whole, not for pieces of it. If this upstream needs no key ' +
        '(a local OpenAI-compatible server), leave `apiKey` out instead of giving a placeholder; otherwise use the real key.',
    });
  }
  return warnings;
}

/**
 * The redactor for one request: the gateway's, plus the caller's key when
 * the route forwards it upstream (key passthrough).
 */
export function requestRedactor(gatewayRedactor: Redactor, ctx: { route?: { keyPassthrough: boolean } | undefined; credential?: string | undefined }): Redactor {
  return ctx.route?.keyPassthrough ? gatewayRedactor.with(ctx.credential) : gatewayRedactor;
}
