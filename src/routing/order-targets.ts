/**
 * The routing step of a model call: the order in which one request tries
 * its route's targets. The chosen deployment first (by affinity or the
 * route's strategy), then the route's other deployments (failover within
 * the route), then its fallbacks as configured.
 *
 * The result is a plain list of targets: a later step may drop the ones it
 * knows to be down without changing the others' order.
 *
 * @internal
 */
import { affinityKey, rendezvousOrder } from './affinity.js';
import type { RouteBalancer } from './balancer.js';
import type { RouteTarget } from './route-types.js';
import type { ResolvedRoute } from './routes.js';
import { type Candidate, type RouteStrategy, strategyOrder } from './strategies.js';

/** What affinity did for a request: kept its prefix's target, moved off it (unavailable), or had no prefix to go by. */
export type AffinityOutcome = 'kept' | 'moved' | 'none';

/** How the first target was chosen, for spans. */
export interface RoutingDecision {
  strategy: RouteStrategy;
  /** Set when the route has affinity. */
  affinity?: AffinityOutcome;
}

/** The targets of one request in the order to try them. */
export interface TargetOrder {
  targets: readonly RouteTarget[];
  /** Undefined for a route with one target: nothing was chosen. */
  decision: RoutingDecision | undefined;
}

/** What the order may depend on. */
export interface RequestForRouting {
  /** The caller (affinity keeps each principal's prefixes apart). */
  principalId: string | undefined;
  /** The body sent upstream, in its wire format (chat or messages), for the affinity key. */
  body: unknown;
  /** The request's health scope (its credential's id on a `keyPassthrough` route), for `isAvailable`. */
  healthScope?: string | undefined;
}

function strategyRanked(balancer: RouteBalancer, targets: readonly RouteTarget[]): RouteTarget[] {
  if (targets.length < 2) return [...targets];
  const candidates: Candidate<RouteTarget>[] = targets.map((target) => ({ target, weight: target.weight ?? 1, stat: balancer.stats.of(target) }));
  return strategyOrder(balancer.strategy, candidates, balancer.random);
}

/**
 * Orders `targets` (a subset of `route.targets`, in route order, as the
 * handlers planned them) for one request. A route with one target keeps
 * the given order. Unavailable deployments (`isAvailable` false) come after
 * the available ones, still before the fallbacks.
 *
 * With affinity, the deployments go in the rendezvous order of the
 * request's prefix key, so a failover lands where that prefix's later
 * requests go while the first target is away; a body without messages goes
 * by the strategy.
 */
export function orderTargets(route: ResolvedRoute, targets: readonly RouteTarget[], request: RequestForRouting): TargetOrder {
  const balancer = route.balancer;
  if (balancer === undefined) return { targets, decision: undefined };
  const own: RouteTarget[] = [];
  const rest: RouteTarget[] = [];
  for (const target of targets) {
    const index = route.targets.indexOf(target);
    (index !== -1 && index < route.deployments ? own : rest).push(target);
  }
  const available: RouteTarget[] = [];
  const away: RouteTarget[] = [];
  for (const target of own) (balancer.isAvailable(target, request.healthScope) ? available : away).push(target);

  const key = balancer.affinity ? affinityKey(request.principalId ?? '', request.body, balancer.affinity.prefixMessages) : undefined;
  if (balancer.affinity && key !== undefined) {
    const ordered = rendezvousOrder(key, own);
    // The prefix's own target is away: it moves to the next one available.
    const affinity: AffinityOutcome = away.length > 0 && away.includes(ordered[0]!) ? 'moved' : 'kept';
    const targets = away.length === 0 ? ordered : [...ordered.filter((target) => !away.includes(target)), ...ordered.filter((target) => away.includes(target))];
    return { targets: rest.length === 0 ? targets : [...targets, ...rest], decision: { strategy: balancer.strategy, affinity } };
  }
  const ordered = [...strategyRanked(balancer, available), ...strategyRanked(balancer, away), ...rest];
  const decision: RoutingDecision = { strategy: balancer.strategy };
  if (balancer.affinity) decision.affinity = 'none';
  return { targets: ordered, decision };
}
