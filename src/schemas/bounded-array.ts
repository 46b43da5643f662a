/**
 * Array schemas that stop validating once a body has shown enough failing
 * elements.
 *
 * A failing element costs zod far more than a valid one: every branch of
 * every union it tried builds issues. A body of 50,000 bad content blocks
 * would keep the event loop busy for most of a second to produce a message
 * that shows three of them. The error message counts at most `MAX_COUNTED`
 * problems (then says `(and more)`), so once a parse has seen one failing
 * element past that, the rest cannot change the message and are not looked
 * at.
 */
import { z } from 'zod';
import { MAX_COUNTED } from './format-issues.js';

/**
 * Failing elements after which a parse stops: each one is at least one line
 * of its own (its index is in the path), so the message is the same as for
 * the whole array.
 */
const FAILURES_TO_STOP = MAX_COUNTED + 1;

/** Failing elements seen so far, per parse: zod passes one context object through a whole parse. */
const failuresByParse = new WeakMap<object, { count: number }>();

/**
 * Makes `schema` (a `z.array(...)`, with its checks) stop after the
 * element that brings the parse's failing elements to `FAILURES_TO_STOP`,
 * counted over all the bounded arrays of that parse. The array fails
 * either way; its issues are the first ones of a full parse, in order.
 * Valid arrays parse exactly as before, and so do async parses.
 *
 * An element counts once, where it fails: an element whose failure lies in
 * a nested bounded array is already counted there. (A bounded array in a
 * union branch that loses to another may count failures the message does
 * not show; the request schemas put them only in branches selected by
 * their tag or shape.)
 *
 * Mutates and returns `schema`; a clone (`.max(5)`) is a plain array again.
 * @internal
 */
export function boundedArray<S extends z.ZodArray>(schema: S): S {
  const internals = schema._zod;
  const parseWhole = internals.parse;
  const element: z.core.$ZodType = internals.def.element;
  const parse: typeof parseWhole = (payload, ctx) => {
    const input = payload.value;
    // Async, encoding and early-abort parses keep zod's own loop.
    if (!Array.isArray(input) || ctx.async !== false || ctx.direction === 'backward' || ctx.abortEarly) {
      return parseWhole(payload, ctx);
    }
    let failures = failuresByParse.get(ctx);
    if (!failures) {
      failures = { count: 0 };
      failuresByParse.set(ctx, failures);
    }
    const output: unknown[] = new Array(input.length);
    for (let index = 0; index < input.length; index++) {
      const before = failures.count;
      const result = element._zod.run({ value: input[index], issues: [] }, ctx) as z.core.ParsePayload;
      output[index] = result.value;
      if (result.issues.length === 0) continue;
      // As zod's own array loop: the element's issues, their paths prefixed with its index.
      for (const issue of z.core.util.prefixIssues(index, result.issues)) payload.issues.push(issue);
      if (failures.count === before) failures.count++;
      if (failures.count >= FAILURES_TO_STOP) break;
    }
    payload.value = output;
    return payload;
  };
  // Without checks, zod runs the parse function directly.
  if (internals.run === parseWhole) internals.run = parse;
  internals.parse = parse;
  return schema;
}
