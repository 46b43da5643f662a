/**
 * "Did you mean": the catalog ids a mistyped model id was probably meant to
 * be. An id within two edits (a letter inserted, dropped, replaced, or two
 * neighbours swapped; letter case ignored) of catalog ids gets the closest
 * of them; an exact id or a far one gets none.
 */
import { editDistance } from '../edit-distance.js';
import type { Catalog } from './catalog.js';

/** Most edits between a mistyped id and the ids it is matched to. */
export const MAX_SUGGESTION_DISTANCE = 2;

/**
 * The catalog ids closest to `model` when it is not one of them itself and
 * is at most {@link MAX_SUGGESTION_DISTANCE} edits away, in catalog order
 * (several when they are equally close: `vendora-opus-4-9` is one edit from
 * three models). Empty otherwise.
 */
export function suggestModels(model: string, catalog: Catalog): string[] {
  if (catalog.has(model)) return [];
  const typed = model.toLowerCase();
  let closest = MAX_SUGGESTION_DISTANCE + 1;
  let ids: string[] = [];
  for (const { id } of catalog.models) {
    const distance = editDistance(typed, id.toLowerCase(), MAX_SUGGESTION_DISTANCE);
    if (distance > MAX_SUGGESTION_DISTANCE || distance > closest) continue;
    if (distance < closest) {
      closest = distance;
      ids = [];
    }
    ids.push(id);
  }
  return ids;
}
