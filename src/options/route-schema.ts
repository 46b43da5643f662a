/**
 * The `routes` option: which upstream serves which model.
 *
 * @internal
 */
import { z } from 'zod';
import type { FallbackTarget, ModelMatcher, ModelRename, Route } from '../routing/routes.js';
import { type Assert, either, flag, got, int, isObject, oneOf, optionsObject, type SameOptions } from './option-schemas.js';
import { upstreamSchema } from './upstream-schema.js';

const MATCHERS = 'a model id, a glob (`gpt-*`), a RegExp or `(model) => boolean`';

const matcherSchema = either<ModelMatcher>((value) => {
  if (value === undefined) return `is missing: give ${MATCHERS}`;
  if (value === '') return `is an empty string, which matches no model: give ${MATCHERS} ('*' for every model)`;
  if (typeof value === 'string' || value instanceof RegExp || typeof value === 'function') return undefined;
  return `must be ${MATCHERS} (got ${got(value)})`;
});

const renameSchema = either<ModelRename>((value) => {
  if (value === '') return 'is an empty string: give the upstream’s model id, or leave `model` out to send the requested id';
  if (typeof value === 'string' || typeof value === 'function') return undefined;
  return `must be the upstream’s model id (a string) or \`(model) => id\` (got ${got(value)})`;
});

const fallbackObjectSchema = optionsObject(
  { upstream: upstreamSchema, model: renameSchema.optional() },
  'a fallback',
  'an upstream or `{ upstream, model? }`',
);

/** An upstream, or `{ upstream, model? }`. */
const fallbackSchema = either<FallbackTarget>((value) =>
  isObject(value) && 'upstream' in value && !('send' in value) ? fallbackObjectSchema : upstreamSchema,
);

export const routeSchema = optionsObject(
  {
    match: matcherSchema,
    upstream: upstreamSchema,
    model: renameSchema.optional(),
    fallbacks: z
      .array(fallbackSchema, { error: (issue) => `must be an array of upstreams or \`{ upstream, model? }\` (got ${got(issue.input)})` })
      .readonly()
      .optional(),
    keyPassthrough: flag().optional(),
    onClientAbort: oneOf(['abort', 'drain'], 'what happens to the upstream call when the client leaves').optional(),
    retries: int(0, 100, 'retries per upstream before the next fallback').optional(),
    serveMessages: flag().optional(),
    whenAllCooling: oneOf(['reject', 'try'], 'what a request does when every target is cooling').optional(),
  },
  'a route',
  '`{ match, upstream, model?, fallbacks?, ... }`',
).superRefine((route, ctx) => {
  if (route.keyPassthrough !== true) return;
  const targets = [route.upstream, ...(route.fallbacks ?? []).map((fallback) => ('send' in fallback ? fallback : fallback.upstream))];
  const signing = targets.find((upstream) => upstream.acceptsCallerKey === false);
  if (signing) {
    ctx.addIssue({
      code: 'custom',
      path: ['keyPassthrough'],
      message: `cannot be used with upstream "${signing.name}": it signs with credentials of its own and never sends a caller's key; remove keyPassthrough (callers are still checked by \`auth\`)`,
    });
  }
});

export const routesSchema = z
  .array(routeSchema, { error: (issue) => `must be an array of routes \`{ match, upstream }\` (got ${got(issue.input)})` })
  .readonly();

type _Route = Assert<SameOptions<z.input<typeof routeSchema>, Route>>;
type _Fallback = Assert<SameOptions<z.input<typeof fallbackObjectSchema>, Exclude<FallbackTarget, { send: unknown }>>>;
