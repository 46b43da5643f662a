/**
 * Where the text of a request body lives, and how replacements are written
 * back to it. The per-interface views (`chat-input-view.ts`, …) walk a body
 * once and record each text's path; writing back copies only the objects
 * and arrays on the paths it changes.
 */
import { checkReplacementBudget, checkSpans, spliceText } from './check-spans.js';
import { GuardDecisionError } from './guard-decision-error.js';
import type { TextPart, TextReplacement } from './guard-types.js';

/** A path from the body to a string: object keys and array indexes. */
export type TextPath = readonly (string | number)[];

/** The body's text locations: part id → path. */
export type TextLocations = ReadonlyMap<string, TextPath>;

/** Records text parts as a view is built: `add` returns the part and remembers its path. */
export interface TextCollector {
  add(path: TextPath, text: string): TextPart;
  readonly locations: TextLocations;
}

/** A fresh collector; a part's id is its path joined with dots (no body key on a text path has one). */
export function createTextCollector(): TextCollector {
  const locations = new Map<string, TextPath>();
  return {
    locations,
    add(path, text) {
      const id = path.join('.');
      locations.set(id, path);
      return { id, text };
    },
  };
}

/** The value at `path` in `body`, or undefined. */
function valueAt(body: unknown, path: TextPath): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/**
 * A new body with `replacements` applied at `locations`; `body` is left as
 * it was. The new body shares every object and array it did not change with
 * `body`, so treat both as read-only. Throws a `GuardDecisionError`, having
 * changed nothing, when a replacement names a part that is not in
 * `locations` or its spans are invalid (see `checkSpans`). Linear in the
 * size of the changed texts and the depth of their paths.
 */
export function applyTextReplacements(body: unknown, locations: TextLocations, replacements: readonly TextReplacement[]): unknown {
  checkReplacementBudget(replacements);
  const byPart = new Map<string, TextReplacement[]>();
  for (const replacement of replacements) {
    const part = (replacement as { part?: unknown }).part;
    if (typeof part !== 'string' || !locations.has(part)) {
      throw new GuardDecisionError(`replacement names part ${JSON.stringify(part)}, which is not a text part of this request`);
    }
    const list = byPart.get(part);
    if (list) list.push(replacement);
    else byPart.set(part, [replacement]);
  }
  // Every part is checked before anything is written.
  const rewritten: [TextPath, string][] = [];
  for (const [part, list] of byPart) {
    const path = locations.get(part)!;
    const text = valueAt(body, path);
    if (typeof text !== 'string') throw new GuardDecisionError(`part ${part} is not text in this body`);
    rewritten.push([path, spliceText(text, checkSpans(list, text, `part ${part}`))]);
  }
  if (rewritten.length === 0) return body;
  const copies = new Map<object, Record<string | number, unknown>>();
  const copyOf = (value: object): Record<string | number, unknown> => {
    let copy = copies.get(value);
    if (!copy) {
      copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;
      copies.set(value, copy);
    }
    return copy;
  };
  const root = copyOf(body as object);
  for (const [path, text] of rewritten) {
    let original = body as Record<string | number, unknown>;
    let copy = root;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      original = original[key] as Record<string | number, unknown>;
      const child = copyOf(original);
      copy[key] = child;
      copy = child;
    }
    copy[path[path.length - 1]!] = text;
  }
  return root;
}
