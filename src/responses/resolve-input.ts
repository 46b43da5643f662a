/**
 * The whole input of a Responses request: the items of its
 * `previous_response_id` chain (that response's input, then its output),
 * then its own `input`, with every `item_reference` replaced by the stored
 * item and every reasoning item sent by id alone completed from the store.
 * Items get ids where they came without, so the stored input can be listed.
 */
import { newInputItemId } from './response-ids.js';
import { itemNotFound, previousResponseNotFound } from './responses-errors.js';
import type { ResponseItem, ResponseStore } from './response-store.js';

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
}

/** The input items of the request's own `input` (a string is one user message). */
export function ownInputItems(input: unknown): Item[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as Item[]) : [];
}

/** Every item the model is to see, earlier turns first, each with an id. */
export async function resolveInput(body: { input?: unknown; previous_response_id?: string | null }, options: ResolveOptions): Promise<ResponseItem[]> {
  const { owner, store } = options;
  const items: ResponseItem[] = [];
  const previousId = body.previous_response_id;
  if (typeof previousId === 'string' && previousId !== '') {
    const previous = store ? await store.get(owner, previousId) : undefined;
    if (!previous) throw previousResponseNotFound(previousId, store !== undefined);
    items.push(...previous.input);
    const output = previous.response.output;
    if (Array.isArray(output)) items.push(...(output as ResponseItem[]));
  }
  const own = ownInputItems(body.input);
  for (let index = 0; index < own.length; index++) {
    const item = own[index]!;
    if (item.type === 'item_reference') {
      const id = typeof item.id === 'string' ? item.id : '';
      const found = store && id !== '' ? await store.getItem(owner, id) : undefined;
      if (!found) throw itemNotFound(id, `input.${index}.id`, store !== undefined);
      items.push(found);
      continue;
    }
    if (item.type === 'reasoning' && store && typeof item.id === 'string' && typeof item.encrypted_content !== 'string') {
      // A reasoning item sent back by id (the Agents SDK's way): its sealed thinking is in the store.
      const stored = await store.getItem(owner, item.id);
      if (stored && stored.type === 'reasoning') {
        items.push({ ...withId(item), encrypted_content: stored.encrypted_content ?? null });
        continue;
      }
    }
    items.push(withId(item));
  }
  return items;
}
