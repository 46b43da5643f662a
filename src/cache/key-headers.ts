/**
 * The caller headers that reach the route's upstreams and can change their
 * answer, for the cache key: a messages upstream reads `anthropic-beta`
 * and `anthropic-version`, and an operator's `forwardHeaders` may carry
 * anything. Trace context travels too but never changes an answer, and
 * would make every request a miss.
 */
import type { GatewayContext } from '../gateway-context.js';
import type { ResolvedRoute } from '../routing/routes.js';
import type { Upstream } from '../upstreams/upstream.js';

/** Forwarded headers that describe the call, not what it asks. */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set(['traceparent', 'tracestate', 'baggage', 'via']);

/**
 * The forwarded headers of the route's upstreams that can change an answer,
 * as sorted `[name, value]` pairs (names lower case), each upstream's set
 * apart; `undefined` when none is sent, so most keys do not change.
 */
export function keyHeaders(ctx: GatewayContext, route: ResolvedRoute): (readonly [string, string][])[] | undefined {
  const seen = new Set<Upstream>();
  const sets: (readonly [string, string][])[] = [];
  for (const target of route.targets) {
    if (seen.has(target.upstream)) continue;
    seen.add(target.upstream);
    const picked = ctx.forwarding.pick(ctx.request.headers, target.upstream);
    const pairs: [string, string][] = [];
    for (const name of Object.keys(picked)) {
      const lower = name.toLowerCase();
      if (!TRANSPORT_HEADERS.has(lower)) pairs.push([lower, picked[name]!]);
    }
    if (pairs.length > 0) sets.push(pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return sets.length > 0 ? sets : undefined;
}
