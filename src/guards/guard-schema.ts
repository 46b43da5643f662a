/**
 * Schema of the `guards` option (on the gateway and on a route), with
 * messages that say what to fix. For the options schemas to plug in.
 *
 * @internal
 */
import { z } from 'zod';
import { type Assert, either, fn, got, int, isObject, MAX_TIMER_MS, oneOf, optionsObject, type SameOptions, shaped } from '../options/option-schemas.js';
import type { Guard, Holdback } from './guard-types.js';

const holdbackObjectSchema = optionsObject(
  { chars: int(1, 1_000_000, 'characters of streamed text held back before they are sent').optional() },
  'a `holdback`',
  '`{ chars: number }` or `"sentence"`',
);

const holdbackSchema = either<Holdback>((value) =>
  value === 'sentence'
    ? undefined
    : isObject(value)
      ? holdbackObjectSchema
      : 'must be `{ chars: number }` (characters held back) or `"sentence"` (held to the end of a sentence)',
);

const guardShape = {
  name: shaped<string>(
    (value) => typeof value === 'string' && value !== '',
    (value) => `must be a non-empty string naming the guard in records and metrics (got ${got(value)})`,
  ),
  input: fn<NonNullable<Guard['input']>>('a function (view, ctx) => decision that checks requests').optional(),
  output: fn<NonNullable<Guard['output']>>('a function (view, ctx) => decision that checks answers').optional(),
  outputChannels: z.array(oneOf(['text', 'tool_arguments', 'reasoning'], 'the answer text an output guard reads')).readonly().optional(),
  timeoutMs: int(1, MAX_TIMER_MS, 'the time for one call of the guard, in ms').optional(),
  onError: oneOf(['open', 'closed'], 'what a failing guard does: "closed" refuses the call, "open" lets the text pass').optional(),
  holdback: holdbackSchema.optional(),
};

/** One guard. */
export const guardSchema = optionsObject(guardShape, 'a guard', '`{ name, input?, output?, timeoutMs?, onError?, holdback?, outputChannels? }`').refine(
  (guard) => guard.input !== undefined || guard.output !== undefined,
  { message: 'has neither `input` nor `output`: give a function for requests, answers or both', path: [] },
);

type _Guard = Assert<SameOptions<z.input<typeof guardSchema>, Guard>>;

/** A list of guards, run in order; names are unique, as records and metrics tell guards apart by them. */
export const guardsSchema = z.array(guardSchema).superRefine((guards, ctx) => {
  const seen = new Set<string>();
  guards.forEach((guard, index) => {
    if (seen.has(guard.name)) {
      ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `repeats the guard name ${JSON.stringify(guard.name)}: give each guard its own name` });
    }
    seen.add(guard.name);
  });
});
