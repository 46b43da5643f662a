/**
 * The items of a stored response by id, as the stores index them.
 *
 * @internal
 */
import type { ResponseItem, StoredResponse } from './response-store.js';

function isItem(value: unknown): value is ResponseItem {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string' && (value as { id: string }).id !== '';
}

/**
 * Every input item, then every output item (`response.output`), by id. An
 * id found twice keeps the later item: an output item over an input item.
 * Items without an id are not indexed.
 */
export function itemsOf(record: StoredResponse): Map<string, ResponseItem> {
  const items = new Map<string, ResponseItem>();
  const output = record.response.output;
  for (const list of [record.input, Array.isArray(output) ? (output as unknown[]) : []]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) if (isItem(item)) items.set(item.id, item);
  }
  return items;
}
