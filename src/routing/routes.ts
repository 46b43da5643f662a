/**
 * Routing: which upstream serves a model, under which upstream model id,
 * with which fallbacks and policies. First matching route wins.
 */
import { GatewayError } from '../errors.js';
import type { ClientAbortPolicy } from '../sse/relay-stream.js';
import type { Upstream } from '../upstreams/upstream.js';
import type { WhenAllCooling } from './target-gate.js';
import { compileMatcher, type ModelMatcher } from '../models/model-matcher.js';

export type { ModelMatcher } from '../models/model-matcher.js';

/** The upstream's id for a model: a fixed id, or a function of the requested id. */
export type ModelRename = string | ((model: string) => string);

/** A fallback upstream, with its own model id (default: the requested id, unrenamed). */
export type FallbackTarget = Upstream | { upstream: Upstream; model?: ModelRename };

/** One routing rule. */
export interface Route {
  match: ModelMatcher;
  upstream: Upstream;
  /** The primary upstream's id for the model. Default: the requested id. */
  model?: ModelRename;
  /** Tried in order when the previous target fails before the response started (connection error, 429, 5xx, 529). */
  fallbacks?: readonly FallbackTarget[];
  /** Send the caller's own key to the upstream instead of the gateway's. Default false. */
  keyPassthrough?: boolean;
  /** On client disconnect: `abort` the upstream (default) or `drain` it for usage accounting. */
  onClientAbort?: ClientAbortPolicy;
  /** Retries per target before moving on (see `sendWithFallback`). Default 1. */
  retries?: number;
  /**
   * Also serve the matched models on `/v1/messages` (and count_tokens), translating to
   * a chat-format upstream when needed. Catalog models are always served there. Default false.
   */
  serveMessages?: boolean;
  /**
   * When every target (and fallback) is cooling: `reject` answers at once
   * (chat 503 `upstream_cooling` / messages 529 `overloaded_error`, or 429
   * when they cool on the upstreams' rate limits, with `retry-after`);
   * `try` sends to them anyway, in order. Default `'reject'`.
   */
  whenAllCooling?: WhenAllCooling;
}

/** One upstream to try, with the model id to send it. */
export interface RouteTarget {
  upstream: Upstream;
  model: string;
}

/** A route resolved for one requested model. */
export interface ResolvedRoute {
  /** The primary target, then the fallbacks, in order. */
  targets: RouteTarget[];
  /** The route that matched. */
  route: Route;
  /** The model id the caller asked for. */
  requestedModel: string;
  keyPassthrough: boolean;
  onClientAbort: ClientAbortPolicy;
}

export interface Router {
  readonly routes: readonly Route[];
  /** The first route matching `model`, or `undefined`. */
  resolve(model: string): ResolvedRoute | undefined;
  /** Like `resolve`, but throws the 404 `MODEL_NOT_FOUND` error when no route matches. */
  resolveOrThrow(model: string): ResolvedRoute;
}

function rename(model: string, how: ModelRename | undefined): string {
  if (how === undefined) return model;
  return typeof how === 'string' ? how : how(model);
}

function isUpstream(value: unknown): value is Upstream {
  return typeof value === 'object' && value !== null && typeof (value as Upstream).send === 'function';
}

/** The 404 for a model no route serves, naming the model. */
export function noRouteError(model: string): GatewayError {
  return new GatewayError('MODEL_NOT_FOUND', `The model \`${model}\` does not exist or is not served by this gateway.`, {
    param: 'model',
    chatCode: 'model_not_found',
  });
}

/**
 * Creates a router over `routes`; the first route whose `match` accepts the
 * model wins. A string without `*`/`?` matches exactly.
 *
 * @example
 * const router = createRouter([
 *   { match: 'vendora-*', upstream: vendor, model: (id) => id.replace(/^vendora-/, 'claude-'), fallbacks: [backup] },
 *   { match: /^gpt-/, upstream: openai },
 * ]);
 * router.resolve('vendora-sonnet-4-6')?.targets; // [{ upstream: vendor, model: 'claude-sonnet-4-6' }, { upstream: backup, model: 'vendora-sonnet-4-6' }]
 * @throws TypeError when a route has no upstream or a malformed fallback.
 */
export function createRouter(routes: readonly Route[]): Router {
  const compiled = routes.map((route, index) => {
    if (!isUpstream(route.upstream)) throw new TypeError(`routes[${index}].upstream must be an Upstream`);
    for (const [j, fallback] of (route.fallbacks ?? []).entries()) {
      if (!isUpstream(fallback) && !isUpstream((fallback as { upstream?: unknown }).upstream)) {
        throw new TypeError(`routes[${index}].fallbacks[${j}] must be an Upstream or { upstream, model? }`);
      }
    }
    return { route, matches: compileMatcher(route.match) };
  });

  const resolve = (model: string): ResolvedRoute | undefined => {
    const hit = compiled.find((entry) => entry.matches(model));
    if (hit === undefined) return undefined;
    const { route } = hit;
    const targets: RouteTarget[] = [{ upstream: route.upstream, model: rename(model, route.model) }];
    for (const fallback of route.fallbacks ?? []) {
      targets.push(
        isUpstream(fallback)
          ? { upstream: fallback, model }
          : { upstream: fallback.upstream, model: rename(model, fallback.model) },
      );
    }
    return {
      targets,
      route,
      requestedModel: model,
      keyPassthrough: route.keyPassthrough ?? false,
      onClientAbort: route.onClientAbort ?? 'abort',
    };
  };

  return {
    routes,
    resolve,
    resolveOrThrow(model) {
      const resolved = resolve(model);
      if (resolved === undefined) throw noRouteError(model);
      return resolved;
    },
  };
}
