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
import { isModelAllowed } from '../auth/allowed-models.js';
import { GatewayError } from '../errors.js';
import type { ModelEntry } from '../models/catalog.js';
import { createdAtOf, type ServedModel, type ServedModels } from '../models/served-models.js';
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
    /** Where it is served: `chat` (chat completions and the Responses API), `messages`, or `embeddings` (`POST /v1/embeddings`) for an embedding model. */
    interfaces: Array<'chat' | 'messages' | 'embeddings'>;
    /** An embedding model's vector length without `dimensions`, when known (embedding models only). */
    dimensions?: number;
    /** The smallest `dimensions` an embedding model accepts, when its vendor publishes one. */
    min_dimensions?: number;
    temperature: ModelEntry['temperature'] | 'accepted';
    thinking: ModelEntry['thinking'] | 'unknown';
    caching: ModelEntry['caching'] | 'unknown';
    min_cacheable_tokens: number | null;
  };
}

/** `owned_by` of the catalog's models: the vendor of the model family, as the vendor's own listing shows it. */
export const CATALOG_OWNER = 'vendora';

/**
 * `owned_by` of a model only a route names. Never the upstream's name: it
 * defaults to the base URL's host and port, an address callers need not see.
 */
export const ROUTED_OWNER = 'modelgate';

function toListedModel(model: ServedModel): ListedModel {
  const createdAt = createdAtOf(model);
  const listed: ListedModel = {
    id: model.id,
    object: 'model',
    created: Math.floor(Date.parse(createdAt) / 1000),
    owned_by: model.entry ? CATALOG_OWNER : ROUTED_OWNER,
    type: 'model',
    display_name: model.entry?.displayName ?? model.id,
    created_at: createdAt,
    modelgate: {
      interfaces: model.embeddings === true ? ['embeddings'] : model.messages ? ['chat', 'messages'] : ['chat'],
      temperature: model.entry?.temperature ?? 'accepted',
      thinking: model.entry?.thinking ?? 'unknown',
      caching: model.entry?.caching ?? 'unknown',
      min_cacheable_tokens: model.entry?.minCacheableTokens ?? null,
    },
  };
  if (model.embedding) listed.modelgate.dimensions = model.embedding.dimensions;
  if (model.embedding?.minDimensions !== undefined) listed.modelgate.min_dimensions = model.embedding.minDimensions;
  return listed;
}

/** The models the caller may use; the vendor's client, which embeds nothing, is not shown embedding models. */
function visible(models: readonly ServedModel[], principal: Principal | undefined, vendorClient: boolean): ServedModel[] {
  return models.filter((model) => isModelAllowed(principal, model.id) && !(vendorClient && model.embeddings === true));
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
  models: readonly ServedModel[],
  query: Record<string, string>,
  options: { principal?: Principal; vendorClient: boolean },
): JsonResponse {
  const all = visible(models, options.principal, options.vendorClient);
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

/** One model (listed, or served by a pattern route without being listed), or a 404 naming it. */
export function retrieveModel(models: ServedModels, id: string, principal: Principal | undefined): JsonResponse {
  const model = isModelAllowed(principal, id) ? models.find(id) : undefined;
  if (!model) {
    throw new GatewayError('MODEL_NOT_FOUND', `model: ${id} is not served by this gateway. GET /v1/models lists the models you can use.`, {
      param: 'model',
      chatCode: 'model_not_found',
    });
  }
  return { type: 'json', status: 200, headers: {}, body: toListedModel(model) };
}
