/**
 * `GET /v1/models` and `GET /v1/models/{id}`.
 *
 * Both official clients call the same path but read different fields, so
 * every entry and the list carry both shapes (PROTOCOLS C.1): `object`,
 * `created`, `owned_by` for the chat client; `type`, `display_name`,
 * `created_at` and the vendor's pagination for the vendor client. Each entry
 * also carries its matrix row under `modelgate`, so clients can discover the
 * rules instead of hitting them.
 */
import { GatewayError } from '../errors.js';
import type { Catalog, ModelEntry } from '../models/catalog.js';
import type { JsonResponse, Principal } from '../types.js';

/** A model as the gateway lists it. */
export interface ListedModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  type: 'model';
  display_name: string;
  created_at: string;
  modelgate: {
    interfaces: Array<'chat' | 'messages'>;
    temperature: ModelEntry['temperature'] | 'accepted';
    thinking: ModelEntry['thinking'] | 'unknown';
    caching: ModelEntry['caching'] | 'unknown';
    min_cacheable_tokens: number | null;
  };
}

/** A model the gateway serves: a catalog row, or a model only a route names. */
export interface ServedModel {
  id: string;
  entry?: ModelEntry;
  /** True when the messages interface serves it (catalog rows, or opted-in routes). */
  messages: boolean;
}

const EPOCH = '1970-01-01T00:00:00Z';

/** `owned_by` of the catalog's models: the vendor of the model family, as the vendor's own listing shows it. */
export const CATALOG_OWNER = 'vendora';

/**
 * `owned_by` of a model only a route names. Never the upstream's name: it
 * defaults to the base URL's host and port, an address callers need not see.
 */
export const ROUTED_OWNER = 'modelgate';

function toListedModel(model: ServedModel): ListedModel {
  const createdAt = model.entry?.createdAt ?? EPOCH;
  return {
    id: model.id,
    object: 'model',
    created: Math.floor(Date.parse(createdAt) / 1000),
    owned_by: model.entry ? CATALOG_OWNER : ROUTED_OWNER,
    type: 'model',
    display_name: model.entry?.displayName ?? model.id,
    created_at: createdAt,
    modelgate: {
      interfaces: model.messages ? ['chat', 'messages'] : ['chat'],
      temperature: model.entry?.temperature ?? 'accepted',
      thinking: model.entry?.thinking ?? 'unknown',
      caching: model.entry?.caching ?? 'unknown',
      min_cacheable_tokens: model.entry?.minCacheableTokens ?? null,
    },
  };
}

/** The catalog's models plus `extraIds` (route-named models), newest first. */
export function servedModels(catalog: Catalog, extra: readonly ServedModel[]): ServedModel[] {
  const byId = new Map<string, ServedModel>();
  for (const entry of catalog.models) byId.set(entry.id, { id: entry.id, entry, messages: true });
  for (const model of extra) if (!byId.has(model.id)) byId.set(model.id, model);
  return [...byId.values()].sort((a, b) => {
    const byDate = Date.parse(b.entry?.createdAt ?? EPOCH) - Date.parse(a.entry?.createdAt ?? EPOCH);
    return byDate !== 0 ? byDate : a.id.localeCompare(b.id);
  });
}

function visible(models: ServedModel[], principal: Principal | undefined): ServedModel[] {
  const allowed = principal?.allowedModels;
  return allowed ? models.filter((model) => allowed.includes(model.id)) : models;
}

function parseLimit(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new GatewayError('INVALID_REQUEST', `limit: must be an integer from 1 to 1000, got ${raw}.`, { param: 'limit' });
  }
  return limit;
}

function indexOfId(models: ServedModel[], id: string, param: string): number {
  const index = models.findIndex((model) => model.id === id);
  if (index === -1) throw new GatewayError('INVALID_REQUEST', `${param}: no model with id ${id} in this listing.`, { param });
  return index;
}

/**
 * One page of the listing. Without `limit`, the chat client (which never
 * pages) gets everything; the vendor client's default page is 20.
 */
export function listModels(
  models: ServedModel[],
  query: Record<string, string>,
  options: { principal?: Principal; vendorClient: boolean },
): JsonResponse {
  const all = visible(models, options.principal);
  const limit = parseLimit(query.limit, options.vendorClient ? 20 : Math.max(all.length, 1));
  let start = 0;
  let end = all.length;
  if (query.after_id !== undefined) start = indexOfId(all, query.after_id, 'after_id') + 1;
  if (query.before_id !== undefined) end = indexOfId(all, query.before_id, 'before_id');
  const windowed = all.slice(start, end);
  // before_id pages backwards: the page is the `limit` entries just before it.
  const page = query.before_id !== undefined && query.after_id === undefined ? windowed.slice(-limit) : windowed.slice(0, limit);
  const hasMore = windowed.length > page.length;
  const data = page.map(toListedModel);
  return {
    type: 'json',
    status: 200,
    headers: {},
    body: {
      object: 'list',
      data,
      has_more: hasMore,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
    },
  };
}

/** One model, or a 404 naming it. */
export function retrieveModel(models: ServedModel[], id: string, principal: Principal | undefined): JsonResponse {
  const model = visible(models, principal).find((candidate) => candidate.id === id);
  if (!model) {
    throw new GatewayError('MODEL_NOT_FOUND', `model: ${id} is not served by this gateway. GET /v1/models lists the models you can use.`, {
      param: 'model',
      chatCode: 'model_not_found',
    });
  }
  return { type: 'json', status: 200, headers: {}, body: toListedModel(model) };
}
