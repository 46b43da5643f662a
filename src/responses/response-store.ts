/**
 * Where stored Responses live: what `previous_response_id`, `item_reference`,
 * a reasoning item's `rs_` id and `GET /v1/responses/{id}` read back.
 *
 * Every read is scoped to the principal that created the response (`owner`):
 * another key's id reads as missing. Implementations: `memoryResponseStore`
 * (one process) and `redisResponseStore` (shared by every instance).
 */

/** One item of a response's input or output, as the Responses API shows it; every stored item has an `id`. */
export interface ResponseItem {
  id: string;
  type: string;
  [field: string]: unknown;
}

/** What the store keeps of one response. Plain JSON: implementations may serialise it. */
export interface StoredResponse {
  /** `resp_…`. */
  id: string;
  /** The id of the principal that created it (`Principal.id`). */
  owner: string;
  /** Unix seconds. */
  createdAt: number;
  /**
   * The Response object as a `GET /v1/responses/{id}` returns it. Reasoning
   * items in its `output` keep their `encrypted_content`; the server strips
   * it from answers that did not ask for it.
   */
  response: Record<string, unknown>;
  /** Every input item the response was made from, in order (earlier turns of a `previous_response_id` chain first), each with an id. */
  input: ResponseItem[];
  /**
   * Set when the response continued another (`previous_response_id`): that
   * response's id, and how many of the first items of `input` are that
   * response's whole input followed by its output. A store may then keep
   * only the items after those and the link, and rebuild `input` from the
   * chain when it is read (the built-in stores do: what a conversation
   * stores grows linearly with its turns, not with their square). A store
   * that keeps the whole `input` works too.
   */
  previous?: ChainLink;
}

/** See {@link StoredResponse.previous}. */
export interface ChainLink {
  /** The `resp_…` id the response continued. */
  id: string;
  /** How many of the first `input` items came from that response (its input, then its output). */
  items: number;
}

/** Options of {@link ResponseStore.getItems}. */
export interface GetItemsOptions {
  /** Bytes of stored records (their JSON, UTF-8) the lookup may read; no limit when absent. */
  maxBytes?: number;
}

/**
 * What {@link ResponseStore.getItems} found, by item id; `overBudget` when it
 * stopped reading at `maxBytes`, so that some ids may be absent only for
 * not having been read.
 */
export type FoundItems = Map<string, ResponseItem> & { overBudget?: boolean };

export interface ResponseStore {
  /**
   * Stores (or replaces) a response; resolves once a `get` from any instance
   * sees it. A store with a size bound may decline a record larger than it
   * (`memoryResponseStore`'s `maxBytes`): `put` still resolves, `get` misses.
   * A store with per-owner quotas rejects with a `GatewayError` (4xx) that
   * says which quota is full (`redisResponseStore`).
   */
  put(record: StoredResponse): Promise<void>;
  /**
   * Rejects with a `GatewayError` (4xx) when a `put` for `owner` would be
   * refused for a quota. Optional: the gateway calls it before calling the
   * upstream for a response it is to store, so that an answer that could
   * not be kept is never asked for (and never billed).
   */
  checkRoom?(owner: string): Promise<void>;
  /**
   * The response, when it exists, has not expired and belongs to `owner`.
   * A store that keeps chains as links (see {@link StoredResponse.previous})
   * misses too when an earlier response of the chain is gone (expired,
   * evicted or deleted): its `input` can no longer be rebuilt.
   */
  get(owner: string, id: string): Promise<StoredResponse | undefined>;
  /**
   * An input or output item of one of `owner`'s stored responses, by item id
   * (`msg_…`, `fc_…`, `rs_…`, ...). An id held by several responses (a
   * store may keep a chain's earlier items again) resolves while any of
   * them remains.
   */
  getItem(owner: string, itemId: string): Promise<ResponseItem | undefined>;
  /**
   * Several items at once, each as `getItem` finds it: the found ones by id,
   * the missing ones absent. Optional: without it, a request's references
   * are read with one `getItem` per distinct id. The gateway calls it at
   * most once per request, with the distinct ids the request refers to (at
   * most `requestBounds.maxItemReferences`), so a store can read them in one
   * round trip. The items returned are the caller's to keep: the gateway may
   * hand one object to several places of a request and never changes it.
   *
   * A few ids can name many large records, so the gateway passes a budget
   * (`options.maxBytes`: what is left of `requestBounds.maxResolvedInputBytes`).
   * A store should stop before reading a record that would take the stored
   * records it has read to find the items (each record's JSON, in UTF-8
   * bytes, each record counted once) past it, unless it is the first record
   * (one record is what a `previous_response_id` reads too), and resolve
   * with what it found so far and `overBudget: true`; the gateway then
   * refuses the request (400). A store
   * that ignores the budget still works: the gateway measures the items it
   * gets, but the reading itself is then unbounded.
   */
  getItems?(owner: string, itemIds: readonly string[], options?: GetItemsOptions): Promise<FoundItems>;
  /** Deletes `owner`'s response; false when there was none. Its items are no longer found either. */
  delete(owner: string, id: string): Promise<boolean>;
}
