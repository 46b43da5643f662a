/**
 * "Did you mean": the catalog ids a mistyped model id was probably meant to
 * be. An id within two edits (a letter inserted, dropped, replaced, or two
 * neighbours swapped; letter case ignored) of catalog ids gets the closest
 * of them; an exact id or a far one gets none.
 */
import type { Catalog } from './catalog.js';

/** Most edits between a mistyped id and the ids it is matched to. */
export const MAX_SUGGESTION_DISTANCE = 2;

/**
 * The optimal-string-alignment distance of `a` and `b` (insertions,
 * deletions, substitutions and swaps of two adjacent characters), or
 * `limit + 1` once it is known to pass `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, beforePrevious[j - 2]! + 1);
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

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
