/**
 * How many items of a Responses `input` the gateway must look up in its
 * response store: `item_reference`s, and reasoning items sent back by id
 * without their `encrypted_content` (`responses/resolve-input.ts` completes
 * those from the store).
 */

/** An input item the gateway looks up in its response store, by its `id`. */
export interface StoredItemLookup {
  type: 'item_reference' | 'reasoning';
  id: string;
  [field: string]: unknown;
}

/**
 * True for an input item that is resolved by a store lookup: an
 * `item_reference`, or a reasoning item without `encrypted_content`, with
 * a non-empty `id` (no stored item has an empty one: an `item_reference`
 * without one is refused, a reasoning item without one is sent as it is).
 * The one definition the count and the resolver share.
 */
export function isStoredItemLookup(item: unknown): item is StoredItemLookup {
  if (typeof item !== 'object' || item === null) return false;
  const { type, id, encrypted_content } = item as Record<string, unknown>;
  if (typeof id !== 'string' || id === '') return false;
  return type === 'item_reference' || (type === 'reasoning' && typeof encrypted_content !== 'string');
}

/**
 * The number of store lookups a Responses `input` asks for (see
 * `isStoredItemLookup`); 0 for a string or missing `input`. Linear in the
 * number of items, which `requestBounds.maxMessages` caps first.
 *
 * @example
 * countItemReferences([{ type: 'item_reference', id: 'msg_1' }, { role: 'user', content: 'Hi' }]); // 1
 */
export function countItemReferences(input: unknown): number {
  if (!Array.isArray(input)) return 0;
  let count = 0;
  for (const item of input) if (isStoredItemLookup(item)) count++;
  return count;
}
