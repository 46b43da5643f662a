/**
 * The `model` label of the gateway's metrics, bounded by the configuration:
 * a model served by name keeps its id, a model served by a pattern route is
 * counted under that route, and the rest share `other`. Upstream model ids
 * (health metrics, OpenTelemetry's `gen_ai.request.model`) are labelled the
 * same way, a fixed id a route renames to counting as served by name: no
 * label ever holds an id only a caller chose.
 *
 * @internal
 */
import type { Catalog } from '../models/catalog.js';
import type { Route, Router } from '../routing/routes.js';

/** The label of a model id: undefined when it is counted as `other`. */
export type ModelLabel = (model: string, route?: Route) => string | undefined;

/** The label of ids no configuration names. */
export const OTHER_MODEL_LABEL = 'other';

/** The fixed upstream ids `route` renames to (its `model`, its targets' and fallbacks'). */
function fixedRenames(route: Route): string[] {
  const renames = [route.model, ...(route.targets ?? []).map((target) => target.model), ...(route.fallbacks ?? []).map((fallback) => ('upstream' in fallback ? fallback.model : undefined))];
  return renames.filter((rename): rename is string => typeof rename === 'string');
}

/**
 * The label of the `index`th configured route: a glob as written (`gpt-*`),
 * a regular expression as its literal (`/^gpt-/i`), a predicate
 * `route:<index>` (its position in `routes`), an exact id itself.
 */
export function routeLabel(route: Route, index: number): string {
  const { match } = route;
  if (typeof match === 'string') return match;
  if (match instanceof RegExp) return String(match);
  return `route:${index}`;
}

export interface ModelLabelConfig {
  catalog: Catalog;
  /** Ids of exact-string routes outside the catalog (served by name; the fixed ids routes rename to are added). */
  routedIds: ReadonlySet<string>;
  /** The configured routes and their router; none when the embedded simulator serves every model. */
  routes?: { list: readonly Route[]; router: Router };
}

/**
 * The labeler: a catalog model or an exact-string route → its id; else the
 * configured route that serves the id (the request's resolved route, or the
 * first that matches it, also for a request refused before routing) → that
 * route's label; else undefined (`other`).
 */
export function createModelLabel({ catalog, routedIds, routes }: ModelLabelConfig): ModelLabel {
  const labels = new Map<Route, string>((routes?.list ?? []).map((route, index) => [route, routeLabel(route, index)]));
  const byName = new Set([...routedIds, ...(routes?.list ?? []).flatMap(fixedRenames)]);
  return (model, resolved) => {
    const served = catalog.get(model)?.id ?? (byName.has(model) ? model : undefined);
    if (served !== undefined || routes === undefined) return served;
    const route = resolved ?? routeOf(routes.router, model);
    return route === undefined ? undefined : labels.get(route);
  };
}

/** The route that would serve `model`; a route whose own function throws for it serves nothing here (the label must never fail a request). */
function routeOf(router: Router, model: string): Route | undefined {
  try {
    return router.resolve(model)?.route;
  } catch {
    return undefined;
  }
}
