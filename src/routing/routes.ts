/**
 * Routing: which upstream serves a model, under which upstream model id,
 * with which fallbacks and policies. First matching route wins. A route
 * names one upstream, or several deployments (`targets`) of the same model
 * that `orderTargets` chooses between per request.
 */
import { GatewayError } from '../errors.js';
import type { ClientAbortPolicy } from '../sse/relay-stream.js';
import type { Upstream } from '../upstreams/upstream.js';
import { compileMatcher } from '../models/model-matcher.js';
import { createBalancer, type RouteBalancer, type RouterOptions } from './balancer.js';
import type { FallbackTarget, ModelRename, Route, RouteTarget } from './route-types.js';
import { TargetStats } from './target-stats.js';
import { type BetaPolicy, compileBetaPolicy } from '../vendor-features/beta-policy.js';

export type { ModelMatcher } from '../models/model-matcher.js';
export type { DeploymentTarget, DeploymentsRoute, FallbackTarget, ModelRename, Route, RouteTarget, SingleUpstreamRoute } from './route-types.js';

/** A route resolved for one requested model. */
export interface ResolvedRoute {
  /** The route's own targets (its `upstream`, or its `targets` as configured), then the fallbacks, in order. */
  targets: RouteTarget[];
  /** How many of `targets`, from the first, are the route's own deployments (the rest are fallbacks). */
  deployments: number;
  /** Chooses among the deployments per request (see `orderTargets`); set when there are several. */
  balancer: RouteBalancer | undefined;
  /** The route that matched. */
  route: Route;
  /** The model id the caller asked for. */
  requestedModel: string;
  keyPassthrough: boolean;
  onClientAbort: ClientAbortPolicy;
  /** The route's `betas` option, compiled. */
  betas: BetaPolicy;
}

export interface Router {
  readonly routes: readonly Route[];
  /** The first route matching `model`, or `undefined`. */
  resolve(model: string): ResolvedRoute | undefined;
  /** Like `resolve`, but throws the 404 `MODEL_NOT_FOUND` error when no route matches. */
  resolveOrThrow(model: string): ResolvedRoute;
}

function rename(model: string, how: ModelRename | undefined): string {
  if (how === undefined) return model;
  return typeof how === 'string' ? how : how(model);
}

function isUpstream(value: unknown): value is Upstream {
  return typeof value === 'object' && value !== null && typeof (value as Upstream).send === 'function';
}

/** The upstream of a fallback entry. */
export function fallbackUpstream(fallback: FallbackTarget): Upstream {
  return 'send' in fallback ? fallback : fallback.upstream;
}

/** The route's own upstreams: its `upstream`, or those of its `targets`, in order. */
export function ownUpstreams(route: Route): Upstream[] {
  return route.targets ? route.targets.map((target) => target.upstream) : [route.upstream];
}

/** Every upstream a route may call: its own, then its fallbacks'. */
export function routeUpstreams(route: Route): Upstream[] {
  return [...ownUpstreams(route), ...(route.fallbacks ?? []).map(fallbackUpstream)];
}

/** The 404 for a model no route serves, naming the model. */
export function noRouteError(model: string): GatewayError {
  return new GatewayError('MODEL_NOT_FOUND', `The model \`${model}\` does not exist or is not served by this gateway.`, {
    param: 'model',
    chatCode: 'model_not_found',
  });
}

/**
 * Creates a router over `routes`; the first route whose `match` accepts the
 * model wins. A string without `*`/`?` matches exactly.
 *
 * @example
 * const router = createRouter([
 *   { match: 'vendora-*', upstream: vendor, model: (id) => id.replace(/^vendora-/, 'claude-'), fallbacks: [backup] },
 *   { match: /^gpt-/, upstream: openai },
 * ]);
 * router.resolve('vendora-sonnet-4-6')?.targets; // [{ upstream: vendor, model: 'claude-sonnet-4-6' }, { upstream: backup, model: 'vendora-sonnet-4-6' }]
 * @throws TypeError when a route has no upstream (or both `upstream` and `targets`) or a malformed target or fallback.
 */
export function createRouter(routes: readonly Route[], options: RouterOptions = {}): Router {
  // One set of figures per router (per gateway instance): a deployment in two routes carries the calls of both.
  const stats = new TargetStats();
  const compiled = routes.map((route, index) => {
    checkOwnTargets(route, index);
    for (const [j, fallback] of (route.fallbacks ?? []).entries()) {
      if (!isUpstream(fallback) && !isUpstream((fallback as { upstream?: unknown }).upstream)) {
        throw new TypeError(`routes[${index}].fallbacks[${j}] must be an Upstream or { upstream, model? }`);
      }
    }
    const several = route.targets !== undefined && route.targets.length > 1;
    return {
      route,
      matches: compileMatcher(route.match),
      balancer: several ? createBalancer(route, stats, options) : undefined,
      betas: compileBetaPolicy(route.betas, route.keyPassthrough === true),
    };
  });

  const resolve = (model: string): ResolvedRoute | undefined => {
    const hit = compiled.find((entry) => entry.matches(model));
    if (hit === undefined) return undefined;
    const { route } = hit;
    const targets: RouteTarget[] = route.targets
      ? route.targets.map((target) => ({ upstream: target.upstream, model: rename(model, target.model), weight: target.weight ?? 1 }))
      : [{ upstream: route.upstream, model: rename(model, route.model) }];
    const deployments = targets.length;
    for (const fallback of route.fallbacks ?? []) {
      targets.push(
        isUpstream(fallback)
          ? { upstream: fallback, model }
          : { upstream: fallback.upstream, model: rename(model, fallback.model) },
      );
    }
    return {
      targets,
      deployments,
      balancer: hit.balancer,
      route,
      requestedModel: model,
      keyPassthrough: route.keyPassthrough ?? false,
      onClientAbort: route.onClientAbort ?? 'abort',
      betas: hit.betas,
    };
  };

  return {
    routes,
    resolve,
    resolveOrThrow(model) {
      const resolved = resolve(model);
      if (resolved === undefined) throw noRouteError(model);
      return resolved;
    },
  };
}

/** Refuses a route without exactly one of `upstream` and a non-empty `targets` (what the options schema reports in full). */
function checkOwnTargets(route: Route, index: number): void {
  const given = route as { upstream?: unknown; targets?: unknown };
  if (given.targets === undefined) {
    if (!isUpstream(given.upstream)) throw new TypeError(`routes[${index}].upstream must be an Upstream (or give \`targets\`)`);
    return;
  }
  if (given.upstream !== undefined) throw new TypeError(`routes[${index}] has both \`upstream\` and \`targets\`: keep one`);
  if (!Array.isArray(given.targets) || given.targets.length === 0) throw new TypeError(`routes[${index}].targets must be a non-empty array of { upstream, weight?, model? }`);
  given.targets.forEach((target: unknown, j) => {
    if (!isUpstream((target as { upstream?: unknown } | null)?.upstream)) throw new TypeError(`routes[${index}].targets[${j}].upstream must be an Upstream`);
  });
}
