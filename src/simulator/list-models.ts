/**
 * The model listing in both vendors' shapes (PROTOCOLS A.9 and B.6), from
 * the catalog.
 */
import { GatewayError } from '../errors.js';
import type { Catalog, ModelEntry } from '../models/catalog.js';
import { DEFAULT_EMBEDDING_MODELS, type EmbeddingModelEntry, findEmbeddingModel } from '../models/embedding-models.js';
import { paginate, readPageParams, type Page } from './paginate.js';

/** One model in the messages interface's shape. */
export interface MessagesModelItem {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
}

/** One model in the chat interface's shape. */
export interface ChatModelItem {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

const OWNER = 'vendora';
/** `owned_by` of OpenAI's own embedding models in its listing. */
const EMBEDDING_OWNER = 'system';

function newestFirst(catalog: Catalog): ModelEntry[] {
  return [...catalog.models].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}

function toMessagesItem(entry: ModelEntry): MessagesModelItem {
  return { type: 'model', id: entry.id, display_name: entry.displayName, created_at: entry.createdAt };
}

function toChatItem(entry: ModelEntry): ChatModelItem {
  return { id: entry.id, object: 'model', created: Math.floor(Date.parse(entry.createdAt) / 1000), owned_by: OWNER };
}

/** `GET /v1/models` for messages clients: newest first, cursor paging (`limit`, `after_id`, `before_id`). */
export function listMessagesModels(catalog: Catalog, query: Record<string, string> | undefined): Page<MessagesModelItem> {
  return paginate(newestFirst(catalog).map(toMessagesItem), (item) => item.id, readPageParams(query));
}

/** `GET /v1/models/{id}` for messages clients; unknown ids are a 404. */
export function retrieveMessagesModel(catalog: Catalog, id: string): MessagesModelItem {
  const entry = catalog.get(id);
  if (!entry) throw new GatewayError('NOT_FOUND', `model: ${id}`, { param: 'model_id' });
  return toMessagesItem(entry);
}

function toEmbeddingItem(entry: EmbeddingModelEntry): ChatModelItem {
  return { id: entry.id, object: 'model', created: Math.floor(Date.parse(entry.createdAt) / 1000), owned_by: EMBEDDING_OWNER };
}

/** The embedding models the simulator answers, newest first (after the catalog's, which are newer). */
function embeddingItems(catalog: Catalog): ChatModelItem[] {
  return DEFAULT_EMBEDDING_MODELS.filter((entry) => !catalog.has(entry.id))
    .map(toEmbeddingItem)
    .sort((a, b) => b.created - a.created || a.id.localeCompare(b.id));
}

/** `GET /v1/models` for chat clients: every model (the catalog's, then the embedding models), one page. */
export function listChatModels(catalog: Catalog): { object: 'list'; data: ChatModelItem[] } {
  return { object: 'list', data: [...newestFirst(catalog).map(toChatItem), ...embeddingItems(catalog)] };
}

/** `GET /v1/models/{id}` for chat clients; unknown ids are a 404 `model_not_found`. */
export function retrieveChatModel(catalog: Catalog, id: string): ChatModelItem {
  const entry = catalog.get(id);
  const embedding = entry ? undefined : findEmbeddingModel(id);
  if (embedding) return toEmbeddingItem(embedding);
  if (!entry) {
    throw new GatewayError('MODEL_NOT_FOUND', `The model \`${id}\` does not exist or you do not have access to it.`, {
      param: 'model',
      chatCode: 'model_not_found',
    });
  }
  return toChatItem(entry);
}
