/**
 * A route's balancer: what it needs to order its deployments per request
 * (strategy, affinity, the instance's figures of each target, and whether a
 * target is available). One per route with several targets, made by the
 * router.
 *
 * @internal
 */
import { affinityOptions, type AffinityOptions } from './affinity.js';
import type { Route, RouteTarget } from './route-types.js';
import type { RouteStrategy } from './strategies.js';
import { TargetStats } from './target-stats.js';

/** Options of `createRouter` for the routes with several targets. */
export interface RouterOptions {
  /**
   * Whether a target may be chosen now (false while it is cooling down, say).
   * Affinity moves off a target that is not; the strategies put such targets
   * last. `scope` is the request's health scope (its credential's id on a
   * `keyPassthrough` route, where health is kept per credential). Default:
   * every target is.
   */
  isAvailable?: (target: RouteTarget, scope: string | undefined) => boolean;
  /** Uniform numbers in [0, 1) for the weighted choices. Default `Math.random`. */
  random?: () => number;
}

/** How one route orders its deployments. */
export interface RouteBalancer {
  readonly strategy: RouteStrategy;
  /** Set when the route has `affinity`. */
  readonly affinity: Required<AffinityOptions> | undefined;
  readonly stats: TargetStats;
  readonly random: () => number;
  isAvailable(target: RouteTarget, scope: string | undefined): boolean;
}

const ALWAYS = (): boolean => true;

/** The balancer of `route`, reading and keeping `stats` (one set per router, shared by its routes). */
export function createBalancer(route: Route, stats: TargetStats, options: RouterOptions): RouteBalancer {
  return {
    strategy: route.strategy ?? 'weighted',
    affinity: affinityOptions(route.affinity),
    stats,
    random: options.random ?? Math.random,
    isAvailable: options.isAvailable ?? ALWAYS,
  };
}
