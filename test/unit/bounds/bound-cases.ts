/**
 * Table helpers for the bounds tests: a body built at a bound must pass, the
 * same body one past it must fail at the expected field.
 */
import { expect } from 'vitest';
import { type BoundedInterface, checkRequestBounds, type CheckedBound, type RequestBoundsOptions } from 'modelgate';

/** `levels` nested objects: `nest(1)` is `{}`, `nest(2)` is `{a: {}}`. Built without recursion. */
export function nest(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}

/** `levels` nested arrays: `nestArrays(1)` is `[]`. */
export function nestArrays(levels: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
}

export const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));

export interface BoundCase {
  /** What is bounded, for the test name. */
  name: string;
  bound: CheckedBound;
  /** The bound's value in this case (small, so the bodies stay small). */
  limit: number;
  /** The body holding `n` of what is bounded. */
  body(n: number): unknown;
  /** The dotted path the violation names. */
  path: string;
}

/** `make(limit)` passes under `{[bound]: limit}`; `make(limit + 1)` fails there with `found: limit + 1`. */
export function expectAtAndPast(api: BoundedInterface, item: BoundCase): void {
  const bounds: RequestBoundsOptions = { [item.bound]: item.limit };
  expect(checkRequestBounds(api, item.body(item.limit), bounds)).toBeUndefined();
  const violation = checkRequestBounds(api, item.body(item.limit + 1), bounds);
  expect(violation).toBeDefined();
  expect({ path: violation!.path.join('.'), bound: violation!.bound, limit: violation!.limit, found: violation!.found }).toEqual({
    path: item.path,
    bound: item.bound,
    limit: item.limit,
    found: item.limit + 1,
  });
}
