/**
 * Whether the response cache takes part in one request, and how: the
 * gateway's and the route's options, the caller's `Cache-Control`, and what
 * in the body a stored answer could not stand for (`cache-bypass-rules.ts`).
 */
import { isModelAllowed } from '../auth/allowed-models.js';
import { BYPASS_RULES } from './cache-bypass-rules.js';
import type { CacheDecision, RequestCacheControl } from './cache-types.js';
import type { CacheApi } from './key-fields.js';

export interface CacheDecisionInput {
  /** The interface the request came in on. */
  api: CacheApi;
  /** The validated request body; its `model` is the model the caller named. */
  body: Readonly<Record<string, unknown>>;
  /** The gateway has a `cache` option and the route does not say `cache: false`. */
  enabled: boolean;
  /** `cache.models`: the models cached (ids or globs, as in `allowedModels`). Undefined: every model. */
  models?: readonly string[] | undefined;
  /** `cache.requestControls`: honour the caller's directives. Default true. */
  requestControls?: boolean | undefined;
  /** The caller's `Cache-Control`, parsed (`parseRequestCacheControl`). */
  control: RequestCacheControl;
  /** The route sends each of a chat request's `n` choices as its own upstream call (a messages-format upstream). */
  fansOutChoices: boolean;
}

/**
 * What the cache does for one request: `{ use: false, reason }` when it is
 * neither looked up nor stored (`x-modelgate-cache: bypass`), else
 * `{ use: true, lookup, maxAgeMs? }` (`lookup` false under `no-cache`:
 * the fresh answer is stored).
 *
 * @example decideCache({ api: 'chat', body, enabled: true, control: parseRequestCacheControl(headers['cache-control']), fansOutChoices: false })
 */
export function decideCache(input: CacheDecisionInput): CacheDecision {
  const { api, body, models } = input;
  if (!input.enabled || !isModelCached(models, body.model)) return { use: false, reason: 'not-enabled' };
  const control: RequestCacheControl = input.requestControls === false ? { noCache: false, noStore: false } : input.control;
  if (control.noStore) return { use: false, reason: 'no-store' };
  const context = { fansOutChoices: input.fansOutChoices };
  for (const rule of BYPASS_RULES[api]) {
    if (rule.applies(body, context)) return { use: false, reason: rule.reason };
  }
  if (control.maxAgeSeconds === undefined) return { use: true, lookup: !control.noCache };
  return { use: true, lookup: !control.noCache, maxAgeMs: control.maxAgeSeconds * 1000 };
}

function isModelCached(models: readonly string[] | undefined, model: unknown): boolean {
  if (models === undefined) return true;
  return typeof model === 'string' && isModelAllowed({ allowedModels: models }, model);
}
