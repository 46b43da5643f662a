/**
 * Which models the gateway serves: what `GET /v1/models` lists, what
 * `GET /v1/models/{id}` finds, and what the messages 404 names.
 *
 * Without routes, the embedded simulator serves the catalog. With routes,
 * a model is listed only when a route serves it, because agents and UIs
 * fill their model pickers from the listing and every entry must answer:
 * an exact-id route lists its id, a route with `list` the ids in it, and a
 * pattern route to messages-format upstreams (the vendor's own API) the
 * catalog models it matches. Any other pattern route cannot be enumerated
 * (`'*'` to an OpenAI-compatible server serves whatever that server has),
 * so it lists nothing until it is given `list`.
 *
 * @internal
 */
import type { Route, RouteTarget } from '../routing/route-types.js';
import { routeUpstreams } from '../routing/routes.js';
import type { Catalog, ModelEntry } from './catalog.js';
import { DEFAULT_EMBEDDING_MODELS, type EmbeddingModelEntry, findKnownEmbeddingModel, isEmbeddingModelId } from './embedding-models.js';
import { isGlob } from './model-matcher.js';

/** A model the gateway serves: a catalog row, or a model only a route names. */
export interface ServedModel {
  id: string;
  entry?: ModelEntry;
  /** True when the messages interface serves it too (catalog models on the simulator or a messages-format route, or a `serveMessages` route). */
  messages: boolean;
  /** True for an embedding model (`isEmbeddingModelId`): served on `POST /v1/embeddings`, not on the chat interfaces. */
  embeddings?: boolean;
  /** Its row in the known embedding models, when it is one (its vector size and date). */
  embedding?: EmbeddingModelEntry;
}

/** A served model's embedding fields, for an id that names an embedding model. */
function embeddingFields(id: string): Pick<ServedModel, 'embeddings' | 'embedding'> {
  if (!isEmbeddingModelId(id)) return {};
  const embedding = findKnownEmbeddingModel(id);
  return embedding ? { embeddings: true, embedding } : { embeddings: true };
}

/** The route that serves a model id and the targets it would call (the router's `resolve`). */
export type ResolveModel = (model: string) => { route: Route; targets: readonly RouteTarget[] } | undefined;

/** The models a gateway serves. */
export interface ServedModels {
  /** The listed models, newest first (then by id). */
  readonly listed: readonly ServedModel[];
  /** A listed model, or one a pattern route serves without listing it; undefined when no route serves `id`. */
  find(id: string): ServedModel | undefined;
}

/** `created_at` of a model without a catalog row: the listing's shape needs a date, and none is known. */
export const UNKNOWN_CREATED_AT = '1970-01-01T00:00:00Z';

/**
 * True when `/v1/messages` takes the model on this route: `serveMessages`,
 * or a catalog model whose every target speaks the messages format (what
 * the messages handler relays without translating).
 */
export function servesOnMessages(resolved: { route: Route; targets: readonly RouteTarget[] }, isCatalogModel: boolean): boolean {
  if (resolved.route.serveMessages === true) return true;
  return isCatalogModel && resolved.targets.every((target) => target.upstream.format === 'messages');
}

/**
 * The ids a route names for the listing, and whether it named them itself
 * (`match` or `list`) or only matches them (catalog ids behind a pattern).
 */
function idsNamedBy(route: Route, catalog: Catalog): { ids: readonly string[]; explicit: boolean } {
  if (route.list !== undefined) return { ids: route.list, explicit: true };
  if (typeof route.match === 'string' && !isGlob(route.match)) return { ids: [route.match], explicit: true };
  // The catalog is the vendor's models: a pattern route to the vendor's format serves the ones it matches.
  if (!routeUpstreams(route).every((upstream) => upstream.format === 'messages')) return { ids: [], explicit: false };
  return { ids: catalog.models.map((entry) => entry.id), explicit: false };
}

/** When a served model was created, as far as it is known. */
export function createdAtOf(model: ServedModel): string {
  return model.entry?.createdAt ?? model.embedding?.createdAt ?? UNKNOWN_CREATED_AT;
}

function newestFirst(models: Iterable<ServedModel>): ServedModel[] {
  return [...models].sort((a, b) => {
    const byDate = Date.parse(createdAtOf(b)) - Date.parse(createdAtOf(a));
    return byDate !== 0 ? byDate : a.id.localeCompare(b.id);
  });
}

/**
 * The served models of a gateway: the catalog and the known embedding
 * models without `routing` (the simulator serves both), else what the
 * routes serve, each id described by the route the router sends it to (the
 * first that matches).
 */
export function createServedModels(options: { catalog: Catalog; routing?: { routes: readonly Route[]; resolve: ResolveModel } }): ServedModels {
  const { catalog, routing } = options;
  if (!routing) {
    const listed = newestFirst([
      ...catalog.models.map((entry): ServedModel => ({ id: entry.id, entry, messages: true })),
      ...DEFAULT_EMBEDDING_MODELS.filter((embedding) => !catalog.has(embedding.id)).map((embedding): ServedModel => ({ id: embedding.id, messages: false, embeddings: true, embedding })),
    ]);
    const byId = new Map(listed.map((model) => [model.id, model]));
    return { listed, find: (id) => byId.get(id) };
  }
  const describe = (id: string, resolved: NonNullable<ReturnType<ResolveModel>>): ServedModel => {
    const entry = catalog.get(id);
    return { id, ...(entry ? { entry } : embeddingFields(id)), messages: servesOnMessages(resolved, entry !== undefined) };
  };
  const byId = new Map<string, ServedModel>();
  for (const route of routing.routes) {
    const { ids, explicit } = idsNamedBy(route, catalog);
    for (const id of ids) {
      if (byId.has(id)) continue;
      const resolved = routing.resolve(id);
      // An id the route named is served wherever the router sends it; a catalog id it only matches, only when the router sends it here.
      if (!resolved || (!explicit && resolved.route !== route)) continue;
      byId.set(id, describe(id, resolved));
    }
  }
  const listed = newestFirst(byId.values());
  return {
    listed,
    find(id) {
      const resolved = byId.has(id) ? undefined : routing.resolve(id);
      return byId.get(id) ?? (resolved ? describe(id, resolved) : undefined);
    },
  };
}
