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
 */
import type { CountBound, FieldRule, StringBound } from './field-rules.js';
import type { RequestBounds } from './request-bounds-options.js';

/** A bound the walk (or the item-reference count) checks. */
export type CheckedBound = StringBound | CountBound | 'maxContentParts' | 'maxDepth' | 'maxObjectKeys' | 'maxItemReferences';

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
   * content parts counted up to this field, an object's keys, item references, or (for
   * `maxDepth`) the level reached, `limit + 1`.
   */
  found: number;
}

interface Frame {
  /** This container's key in its parent's (undefined for the root). */
  readonly key: string | number | undefined;
  readonly container: Record<string, unknown> | readonly unknown[];
  /** An object's own keys; undefined for an array. */
  readonly keys: string[] | undefined;
  /** An object's field rules. */
  readonly fields: ReadonlyMap<string, FieldRule> | undefined;
  /** An array's rule of every entry. */
  readonly items: FieldRule | undefined;
  next: number;
}

/** The first violation in `body` read with `rule`, or undefined. Linear in the body; stops at the first violation. @internal */
export function walkBoundedBody(body: unknown, rule: FieldRule, bounds: RequestBounds): RequestBoundViolation | undefined {
  const stack: Frame[] = [];
  let parts = 0;

  /** The violation of the value under `key` in the top frame (or of the root when `key` is undefined). */
  const violation = (key: string | number | undefined, bound: CheckedBound, found: number): RequestBoundViolation => {
    // The path is built only here: the walk itself keeps no path.
    const path: (string | number)[] = [];
    for (let level = 1; level < stack.length; level++) path.push(stack[level]!.key!);
    if (key !== undefined) path.push(key);
    return { path, bound, limit: bounds[bound], found };
  };

  /** Checks the value under `key` in the top frame; opens a frame for an object or array. */
  const enter = (value: unknown, key: string | number | undefined, valueRule: FieldRule | undefined): RequestBoundViolation | undefined => {
    if (typeof value === 'string') {
      const bound = valueRule?.string;
      return bound !== undefined && value.length > bounds[bound] ? violation(key, bound, value.length) : undefined;
    }
    if (typeof value !== 'object' || value === null) return undefined;
    // This value would open level `stack.length + 1`.
    if (stack.length >= bounds.maxDepth) return violation(key, 'maxDepth', stack.length + 1);
    if (Array.isArray(value)) {
      const count = valueRule?.count;
      if (count !== undefined && value.length > bounds[count]) return violation(key, count, value.length);
      if (valueRule?.parts) {
        parts += value.length;
        if (parts > bounds.maxContentParts) return violation(key, 'maxContentParts', parts);
      }
      stack.push({ key, container: value, keys: undefined, fields: undefined, items: valueRule?.items, next: 0 });
      return undefined;
    }
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (keys.length > bounds.maxObjectKeys) return violation(key, 'maxObjectKeys', keys.length);
    stack.push({ key, container: object, keys, fields: valueRule?.fields, items: undefined, next: 0 });
    return undefined;
  };

  const found = enter(body, undefined, rule);
  if (found) return found;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { keys } = frame;
    let found: RequestBoundViolation | undefined;
    if (keys === undefined) {
      const array = frame.container as readonly unknown[];
      if (frame.next >= array.length) {
        stack.pop();
        continue;
      }
      const index = frame.next++;
      found = enter(array[index], index, frame.items);
    } else {
      if (frame.next >= keys.length) {
        stack.pop();
        continue;
      }
      const key = keys[frame.next++]!;
      found = enter((frame.container as Record<string, unknown>)[key], key, frame.fields?.get(key));
    }
    if (found) return found;
  }
  return undefined;
}
