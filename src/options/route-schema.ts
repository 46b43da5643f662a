/**
 * The `routes` option: which upstream serves which model.
 *
 * @internal
 */
import { guardsSchema } from '../guards/guard-schema.js';
import { z } from 'zod';
import type { AffinityOptions } from '../routing/affinity.js';
import type { DeploymentTarget, FallbackTarget, ModelMatcher, ModelRename, Route, SingleUpstreamRoute } from '../routing/routes.js';
import { ROUTE_STRATEGIES } from '../routing/strategies.js';
import type { Upstream } from '../upstreams/upstream.js';
import { compileMatcher, isGlob } from '../models/model-matcher.js';
import { amount, type Assert, either, flag, got, int, isObject, oneOf, optionsObject, type SameOptions } from './option-schemas.js';
import { MAKE_ONE, upstreamSchema } from './upstream-schema.js';
import { routeCacheSchema } from './cache-schema.js';

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

const deploymentObjectSchema = optionsObject(
  {
    upstream: upstreamSchema,
    weight: amount(0, { meaning: 'its share of the route’s requests (default 1; 0 takes it out of the choice, for failover only)' }).optional(),
    model: renameSchema.optional(),
  },
  'a target',
  '`{ upstream, weight?, model? }`',
);

/** True for what looks like an upstream itself (what `openAICompatible` returns), not `{ upstream }`. */
function isBareUpstream(value: unknown): value is { name?: unknown } {
  return isObject(value) && 'send' in value && !('upstream' in value);
}

/** `{ upstream, weight?, model? }`; a bare upstream is the common slip, so it gets the wrapped form. */
const deploymentSchema = either<DeploymentTarget>((value) => {
  if (!isBareUpstream(value)) return deploymentObjectSchema;
  const name = typeof value.name === 'string' ? ` ("${value.name}")` : '';
  return `is an upstream${name}, not a target: wrap each upstream in an object, e.g. \`targets: [{ upstream: east }, { upstream: west }]\` (a target is \`{ upstream, weight?, model? }\`)`;
});

const affinitySchema = either<boolean | AffinityOptions>((value) =>
  typeof value === 'boolean'
    ? undefined
    : isObject(value)
      ? optionsObject(
          { prefixMessages: int(1, 1000, 'messages after the system prompt that make the prefix kept on one target').optional() },
          'an affinity',
          '`true` or `{ prefixMessages? }`',
        )
      : `must be true, false or \`{ prefixMessages? }\` (got ${got(value)})`,
);

const BETA_ENTRY = /^(?:\*|[\w.-]+\*?)$/;

const betaEntrySchema = z.string({ error: (issue) => `must be a beta name, a prefix ending in \`*\` or '*' (got ${got(issue.input)})` }).refine(
  (entry) => BETA_ENTRY.test(entry),
  { error: (issue) => `must be a beta name ('files-api-2025-04-14'), a prefix ending in \`*\` ('files-api-*') or '*' for every beta that reaches nothing held on the vendor account (got ${JSON.stringify(issue.input)})` },
);

const betasSchema = optionsObject(
  {
    allow: z
      .array(betaEntrySchema, { error: (issue) => `must be an array of beta names or prefixes ending in \`*\`, e.g. ['*', 'files-api-*'] (got ${got(issue.input)})` })
      .readonly()
      .optional(),
  },
  '`betas`',
  "`{ allow: [...] }`, e.g. `{ allow: ['*', 'files-api-*'] }`",
);

const listedIdSchema = z
  .string({ error: (issue) => `must be a model id, a string (got ${got(issue.input)})` })
  .min(1, { error: () => 'is an empty string: give a model id the route serves' })
  .refine((id) => !isGlob(id), { error: (issue) => `is a glob (${JSON.stringify(issue.input)}): list the exact ids callers can pick` });

/** The ids `GET /v1/models` lists for a pattern route. */
const listSchema = z
  .array(listedIdSchema, { error: (issue) => `must be an array of the model ids the route serves, e.g. ['llama-3.1-8b'] (got ${got(issue.input)})` })
  .readonly();

/** The options of a route as one object: `upstream` and `targets` both optional, exactly one checked below. */
const routeObjectSchema = optionsObject(
  {
    match: matcherSchema,
    upstream: upstreamSchema.optional(),
    model: renameSchema.optional(),
    targets: z
      .array(deploymentSchema, { error: (issue) => `must be an array of \`{ upstream, weight?, model? }\` (got ${got(issue.input)})` })
      .readonly()
      .optional(),
    strategy: oneOf(ROUTE_STRATEGIES, 'how a target is picked per request').optional(),
    affinity: affinitySchema.optional(),
    fallbacks: z
      .array(fallbackSchema, { error: (issue) => `must be an array of upstreams or \`{ upstream, model? }\` (got ${got(issue.input)})` })
      .readonly()
      .optional(),
    keyPassthrough: flag().optional(),
    betas: betasSchema.optional(),
    guards: guardsSchema.readonly().optional(),
    onClientAbort: oneOf(['abort', 'drain'], 'what happens to the upstream call when the client leaves').optional(),
    retries: int(0, 100, 'retries per upstream before the next fallback').optional(),
    serveMessages: flag().optional(),
    list: listSchema.optional(),
    whenAllCooling: oneOf(['try', 'reject'], 'what a request does when every target is cooling after failures (`try` them anyway, the default, or `reject` at once)').optional(),
    cache: routeCacheSchema.optional(),
  },
  'a route',
  '`{ match, upstream, model?, fallbacks?, ... }` or `{ match, targets: [{ upstream, weight?, model? }, ...], strategy?, ... }`',
).superRefine((route, ctx) => {
  checkOwnTargets(route, ctx);
  checkList(route, ctx);
  if (route.keyPassthrough !== true) return;
  const own: unknown[] = route.targets ? route.targets.map((target) => upstreamOf(target)) : [route.upstream];
  const fallbacks: unknown[] = (route.fallbacks ?? []).map((fallback) => (isObject(fallback) && 'send' in fallback ? fallback : upstreamOf(fallback)));
  const signing = [...own, ...fallbacks].find((upstream): upstream is Upstream => isObject(upstream) && upstream.acceptsCallerKey === false);
  if (signing) {
    ctx.addIssue({
      code: 'custom',
      path: ['keyPassthrough'],
      message: `cannot be used with upstream "${signing.name}": it signs with credentials of its own and never sends a caller's key; remove keyPassthrough (callers are still checked by \`auth\`)`,
    });
  }
});

type RouteObject = z.output<typeof routeObjectSchema>;

/** `list` belongs to pattern routes and names only ids the route's `match` takes, each once. */
function checkList(route: RouteObject, ctx: z.RefinementCtx): void {
  if (route.list === undefined) return;
  const issue = (path: PropertyKey[], message: string): void => ctx.addIssue({ code: 'custom', path, message });
  if (typeof route.match === 'string' && !isGlob(route.match)) {
    issue(['list'], `is for a route whose \`match\` is a glob, RegExp or function: this route's \`match\` is the exact id ${JSON.stringify(route.match)}, which GET /v1/models lists already; remove \`list\``);
    return;
  }
  const matches = compileMatcher(route.match);
  const seen = new Map<string, number>();
  route.list.forEach((id, index) => {
    if (typeof id !== 'string' || id === '' || isGlob(id)) return; // reported by listedIdSchema
    const first = seen.get(id);
    if (first !== undefined) return issue(['list', index], `repeats list[${first}] (${JSON.stringify(id)}): give each id once`);
    seen.set(id, index);
    if (!matchesSafely(matches, id)) {
      issue(['list', index], `${JSON.stringify(id)} is not matched by this route's \`match\`, so requests for it never reach the route: list the ids \`match\` takes, or widen \`match\``);
    }
  });
}

/** A `match` function that throws matches nothing, as far as `list` is concerned. */
function matchesSafely(matches: (model: string) => boolean, id: string): boolean {
  try {
    return matches(id) === true;
  } catch {
    return false;
  }
}

/**
 * Messages for route options given where a route's options are not (the
 * `routing` group, the gateway's top level), pointing at `routes[i]`.
 *
 * @param notIn How the group's options are named: "a `routing` option".
 */
export function routeOptionsGivenElsewhere(notIn: string): Record<string, string> {
  return Object.fromEntries(
    Object.keys(routeObjectSchema.shape).map((name) => [
      name,
      name === 'cache'
        ? `is not ${notIn}: the response cache is the gateway's \`cache: { store, ... }\`, and a route leaves it with \`routes[i].cache: false\``
        : `is a route option, not ${notIn}: give it on the route it applies to, as \`routes[i].${name}\` (\`routes: [{ match, ${name === 'match' ? 'upstream' : name}, ... }]\`)`,
    ]),
  );
}

/**
 * The upstream of a target or fallback object, or undefined for an entry
 * that is not one. The checks across fields run even when a field was
 * refused (its message is already given), so they read entries with care.
 */
function upstreamOf(entry: unknown): Record<string, unknown> | undefined {
  return isObject(entry) && isObject(entry.upstream) ? entry.upstream : undefined;
}

/** Exactly one of `upstream` and `targets`; `model`, `strategy` and `affinity` only where they mean something; no deployment twice. */
function checkOwnTargets(route: RouteObject, ctx: z.RefinementCtx): void {
  const issue = (path: PropertyKey[], message: string): void => ctx.addIssue({ code: 'custom', path, message });
  if (route.targets === undefined) {
    if (route.upstream === undefined) issue(['upstream'], `is missing: give an upstream: ${MAKE_ONE}; or \`targets: [{ upstream, weight?, model? }, ...]\` for several deployments of the model`);
    return;
  }
  if (route.upstream !== undefined) {
    issue(['upstream'], 'cannot be given with `targets`: keep `targets` (put this upstream in it) or `upstream` alone');
  }
  if (route.model !== undefined) issue(['model'], 'belongs in each target with `targets`: `targets: [{ upstream, model }]`');
  if (route.targets.length === 0) {
    issue(['targets'], 'is empty: give at least one `{ upstream, weight?, model? }`');
    return;
  }
  if (route.targets.every((target) => isObject(target) && target.weight === 0)) {
    issue(['targets'], 'has no target with a weight above 0: no request could be sent; give one a weight (default 1)');
  }
  const seen = new Map<string, number>();
  route.targets.forEach((target, index) => {
    const upstream = upstreamOf(target);
    if (upstream === undefined || typeof upstream.name !== 'string' || typeof target.model === 'function') return;
    const id = `${upstream.name}\u0000${target.model ?? ''}`;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else issue(['targets', index], `repeats targets[${first}] (upstream "${upstream.name}"${target.model ? `, model "${target.model}"` : ''}): give each deployment once, with a weight for its share`);
  });
}

/** A route: one `upstream`, or several `targets`. */
export const routeSchema = either<Route>(() => routeObjectSchema);

export const routesSchema = z
  .array(routeSchema, { error: (issue) => `must be an array of routes \`{ match, upstream }\` (got ${got(issue.input)})` })
  .readonly();

/** `Route` as one object type (its union members merged), what `routeObjectSchema` checks. */
type FlatRoute = Omit<SingleUpstreamRoute, 'upstream' | 'targets'> & { upstream?: Upstream; targets?: readonly DeploymentTarget[] };
type _Route = Assert<SameOptions<z.input<typeof routeObjectSchema>, FlatRoute>>;
type _Deployment = Assert<SameOptions<z.input<typeof deploymentObjectSchema>, DeploymentTarget>>;
type _Fallback = Assert<SameOptions<z.input<typeof fallbackObjectSchema>, Exclude<FallbackTarget, { send: unknown }>>>;
