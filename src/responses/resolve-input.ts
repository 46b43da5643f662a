/**
 * The whole input of a Responses request: the items of its
 * `previous_response_id` chain (that response's input, then its output),
 * then its own `input`, with every `item_reference` replaced by the stored
 * item and every reasoning item sent by id alone completed from the store.
 * Items get ids where they came without, so the stored input can be listed.
 *
 * A few bytes of reference can stand for a large stored item, so the work
 * is bounded before it is done (`requestBounds`): the references were
 * counted at the edge (`maxItemReferences`), before any step reads the
 * store; each distinct id
 * is read once, however often it is named, and its occurrences share the
 * one item (nothing downstream changes an input item); and the resolved
 * input's JSON size is added up as it is built, each stored item measured
 * once, refused as soon as it passes `maxResolvedInputBytes`. A store
 * that reads items in a batch (`getItems`) gets what is left of that budget
 * for the records it reads to find them, and stops there.
 */
import type { RequestBounds } from '../bounds/request-bounds-options.js';
import { newInputItemId } from './response-ids.js';
import { isStoredItemLookup } from '../bounds/count-item-references.js';
import { emptyItemReference, itemNotFound, previousResponseNotFound, resolvedInputTooLarge } from './responses-errors.js';
import type { ChainLink, ResponseItem, ResponseStore } from './response-store.js';

type Item = Record<string, unknown>;

/** The item with an id: its own when it has one, else a fresh one. */
function withId(item: Item): ResponseItem {
  const type = typeof item.type === 'string' ? item.type : 'message';
  if (typeof item.id === 'string' && item.id !== '') return { ...item, type, id: item.id };
  return { ...item, type, id: newInputItemId(type) };
}

export interface ResolveOptions {
  owner: string;
  store: ResponseStore | undefined;
  /** How large the input may grow by the stored items it refers to (`requestBounds`). */
  bounds: Pick<RequestBounds, 'maxResolvedInputBytes'>;
}

/** The input items of the request's own `input` (a string is one user message). */
export function ownInputItems(input: unknown): Item[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as Item[]) : [];
}

/**
 * The distinct ids `own` looks up in the store (`isStoredItemLookup`: item
 * references, and reasoning items sent back by id alone, the Agents SDK's
 * way). How many there may be is a request bound, checked at the edge
 * (`requestBounds.maxItemReferences`) before any step reads the store.
 */
function referencedIds(own: readonly Item[]): Set<string> {
  const ids = new Set<string>();
  for (const item of own) if (isStoredItemLookup(item)) ids.add(item.id);
  return ids;
}

/** UTF-8 bytes of a value's JSON. */
function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** A stored item, and its sizes once measured (each measured once per request). */
interface Found {
  item: ResponseItem;
  bytes?: number;
  /** `,"encrypted_content":<value>`: what completing a reasoning item sent by id adds to it. */
  sealedBytes?: number;
}

const SEALED_KEY_BYTES = ',"encrypted_content":'.length;

/**
 * Each distinct id read once: all at once when the store can (`getItems`,
 * within what is left of the size budget: past it, the request is refused
 * without reading further), else one `getItem` at its first use (so a
 * request refused for its size stops reading there).
 */
async function storedItems(
  store: ResponseStore,
  owner: string,
  ids: ReadonlySet<string>,
  budget: SizeBudget,
): Promise<(id: string) => Promise<Found | undefined>> {
  const found = new Map<string, Found | undefined>();
  if (store.getItems && ids.size > 0) {
    const items = await store.getItems(owner, [...ids], { maxBytes: budget.left() });
    if (items.overBudget === true) budget.refuse();
    for (const id of ids) {
      const item = items.get(id);
      found.set(id, item && { item });
    }
  }
  return async (id) => {
    if (found.has(id)) return found.get(id);
    const item = await store.getItem(owner, id);
    const entry = item && { item };
    found.set(id, entry);
    return entry;
  };
}

/** The resolved input's size so far (an item's JSON and its comma), against `requestBounds.maxResolvedInputBytes`. */
interface SizeBudget {
  /** Adds an item's bytes; throws once the total passes the maximum. */
  add(bytes: number): void;
  /** Bytes left before the maximum. */
  left(): number;
  /** Throws the refusal: the stored responses holding the referenced items are larger than what is left. */
  refuse(): never;
}

function sizeBudget(max: number): SizeBudget {
  let total = 0;
  return {
    add(bytes) {
      total += bytes + 1;
      if (total > max) throw resolvedInputTooLarge(max);
    },
    left: () => max - total,
    refuse() {
      throw resolvedInputTooLarge(max, 'records');
    },
  };
}

/**
 * The resolved input; `previous` when it begins with a stored response's
 * items (what a store may keep as a link instead of the items again).
 */
export type ResolvedInput = ResponseItem[] & { previous?: ChainLink };

/** Every item the model is to see, earlier turns first, each with an id. */
export async function resolveInput(body: { input?: unknown; previous_response_id?: string | null }, options: ResolveOptions): Promise<ResolvedInput> {
  const { owner, store, bounds } = options;
  const own = ownInputItems(body.input);
  const ids = referencedIds(own);
  const previousId = typeof body.previous_response_id === 'string' && body.previous_response_id !== '' ? body.previous_response_id : undefined;
  // Only what comes from the store can outgrow the body limit: an input that reads nothing is not measured.
  const measure = store !== undefined && (previousId !== undefined || ids.size > 0);
  const budget = sizeBudget(bounds.maxResolvedInputBytes);
  const add = measure ? budget.add : () => {};
  const items: ResolvedInput = [];
  if (previousId !== undefined) {
    const previous = store ? await store.get(owner, previousId) : undefined;
    if (!previous) throw previousResponseNotFound(previousId, store !== undefined);
    const output = previous.response.output;
    for (const item of [...previous.input, ...(Array.isArray(output) ? (output as ResponseItem[]) : [])]) {
      add(jsonBytes(item));
      items.push(item);
    }
    items.previous = { id: previousId, items: items.length };
  }
  const lookup = store && (await storedItems(store, owner, ids, budget));
  for (let index = 0; index < own.length; index++) {
    const item = own[index]!;
    if (item.type === 'item_reference') {
      if (!isStoredItemLookup(item)) throw emptyItemReference(`input.${index}.id`);
      const found = lookup && (await lookup(item.id));
      if (!found) throw itemNotFound(item.id, `input.${index}.id`, store !== undefined);
      add((found.bytes ??= jsonBytes(found.item)));
      items.push(found.item);
      continue;
    }
    if (lookup && isStoredItemLookup(item)) {
      const found = await lookup(item.id);
      if (found && found.item.type === 'reasoning') {
        const sealed = found.item.encrypted_content ?? null;
        const sent = withId(item);
        add(jsonBytes(sent) + (found.sealedBytes ??= SEALED_KEY_BYTES + jsonBytes(sealed)));
        items.push({ ...sent, encrypted_content: sealed });
        continue;
      }
    }
    const resolved = withId(item);
    if (measure) add(jsonBytes(resolved));
    items.push(resolved);
  }
  return items;
}
