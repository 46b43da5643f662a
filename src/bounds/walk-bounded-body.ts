/**
 * One walk over a parsed JSON body that finds the first value past a bound:
 * nesting depth everywhere, and the lengths, counts and content parts the
 * interface's field rules name.
 *
 * The walk keeps its own stack (one frame per open object or array), so a
 * body nested 50,000 levels deep costs `maxDepth` frames, not a call-stack
 * overflow; every value is visited at most once, and an array's length is
 * checked before any of its entries, so a million-entry `messages` is
 * refused without reading them.
 *
 * @internal
 */
import type { CountBound, FieldRule, StringBound } from './field-rules.js';
import type { RequestBounds } from './request-bounds-options.js';

/** A bound the walk (or the item-reference count) checks. */
export type CheckedBound = StringBound | CountBound | 'maxContentParts' | 'maxDepth' | 'maxItemReferences';

/** The first value of a request past a bound. */
export interface RequestBoundViolation {
  /** Where, as path segments from the body root (`['messages', 2, 'content']`). */
  path: (string | number)[];
  /** The `requestBounds` option that was passed. */
  bound: CheckedBound;
  /** That option's value. */
  limit: number;
  /**
   * What the request holds: characters of the string, entries of the array,
   * content parts counted up to this field, item references, or (for
   * `maxDepth`) the level reached, `limit + 1`.
   */
  found: number;
}

interface Frame {
  readonly container: Record<string, unknown> | readonly unknown[];
  /** An object's own keys; undefined for an array. */
  readonly keys: string[] | undefined;
  /** An object's field rules, or the rule of every entry of an array. */
  readonly fields: ReadonlyMap<string, FieldRule> | undefined;
  readonly items: FieldRule | undefined;
  next: number;
}

/** The first violation in `body` read with `rule`, or undefined. Linear in the body; stops at the first violation. */
export function walkBoundedBody(body: unknown, rule: FieldRule, bounds: RequestBounds): RequestBoundViolation | undefined {
  const stack: Frame[] = [];
  // path[i] is the key, in the container of frame i, of the value being read.
  const path: (string | number)[] = [];
  let parts = 0;

  const violation = (bound: CheckedBound, found: number): RequestBoundViolation => ({
    path: path.slice(),
    bound,
    limit: bounds[bound],
    found,
  });

  /** Checks the value at `path`; opens a frame for an object or array. */
  const enter = (value: unknown, valueRule: FieldRule | undefined): RequestBoundViolation | undefined => {
    if (typeof value === 'string') {
      const bound = valueRule?.string;
      return bound !== undefined && value.length > bounds[bound] ? violation(bound, value.length) : undefined;
    }
    if (typeof value !== 'object' || value === null) return undefined;
    // This value would open level `stack.length + 1`.
    if (stack.length >= bounds.maxDepth) return violation('maxDepth', stack.length + 1);
    if (Array.isArray(value)) {
      const count = valueRule?.count;
      if (count !== undefined && value.length > bounds[count]) return violation(count, value.length);
      if (valueRule?.parts) {
        parts += value.length;
        if (parts > bounds.maxContentParts) return violation('maxContentParts', parts);
      }
      stack.push({ container: value, keys: undefined, fields: undefined, items: valueRule?.items, next: 0 });
      return undefined;
    }
    const object = value as Record<string, unknown>;
    stack.push({ container: object, keys: Object.keys(object), fields: valueRule?.fields, items: undefined, next: 0 });
    return undefined;
  };

  const found = enter(body, rule);
  if (found) return found;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { keys } = frame;
    const size = keys === undefined ? (frame.container as readonly unknown[]).length : keys.length;
    if (frame.next >= size) {
      stack.pop();
      continue;
    }
    const index = frame.next++;
    const key = keys === undefined ? index : keys[index]!;
    path.length = stack.length;
    path[stack.length - 1] = key;
    const child = keys === undefined ? (frame.container as readonly unknown[])[index] : (frame.container as Record<string, unknown>)[key];
    const childRule = keys === undefined ? frame.items : frame.fields?.get(key as string);
    const childFound = enter(child, childRule);
    if (childFound) return childFound;
  }
  return undefined;
}
