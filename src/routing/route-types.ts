/**
 * The types of the `routes` option: a route, its targets and fallbacks, and
 * one target as the router resolves it. Their own file so the router, the
 * balancer and the health gate all depend on them, not on each other.
 */
import type { ClientAbortPolicy } from '../sse/relay-stream.js';
import type { Upstream } from '../upstreams/upstream.js';
import type { ModelMatcher } from '../models/model-matcher.js';
import type { AffinityOption } from './affinity.js';
import type { RouteStrategy } from './strategies.js';
import type { Guard } from '../guards/guard-types.js';
import type { BetaOptions } from '../vendor-features/beta-policy.js';

/**
 * What a route does when every one of its targets is cooling after
 * failures: `try` sends to them anyway, in order (default; the panic mode),
 * `reject` answers at once without an upstream call.
 */
export type WhenAllCooling = 'reject' | 'try';

/** The upstream's id for a model: a fixed id, or a function of the requested id. */
export type ModelRename = string | ((model: string) => string);

/** A fallback upstream, with its own model id (default: the requested id, unrenamed). */
export type FallbackTarget = Upstream | { upstream: Upstream; model?: ModelRename };

/** One deployment of a route's model: an upstream, its share of the traffic and its id for the model. */
export interface DeploymentTarget {
  upstream: Upstream;
  /** Relative share of the requests (weighted strategies and affinity). Default 1. */
  weight?: number;
  /** This upstream's id for the model. Default: the requested id. */
  model?: ModelRename;
}

/** The fields every route has, whether it names one upstream or several deployments. */
interface RouteCommon {
  match: ModelMatcher;
  /** Tried in order when the previous target fails before the response started (connection error, 429, 5xx, 529). */
  fallbacks?: readonly FallbackTarget[];
  /** Send the caller's own key to the upstream instead of the gateway's. Default false. */
  keyPassthrough?: boolean;
  /**
   * Which vendor betas and account-held features callers may use: by default every
   * beta except those reaching what the vendor account holds (files, the MCP connector,
   * code execution, ...), which get a 400; everything on `keyPassthrough` routes.
   * See {@link BetaOptions}.
   */
  betas?: BetaOptions;
  /** Guards for this route's models, run after the gateway's `guards` (see `Guard`). Default: none. */
  guards?: readonly Guard[];
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
   * The model ids `GET /v1/models` lists for this route, for a `match` that is a glob,
   * RegExp or function (the listing cannot enumerate a pattern); each must be matched by
   * `match`. An exact-id route lists its id without it. Default: none, except that a route
   * whose upstreams all speak the messages format lists the catalog models it matches.
   *
   * @example { match: 'llama-*', upstream: local, list: ['llama-3.1-8b', 'llama-3.1-70b'] }
   */
  list?: readonly string[];
  /**
   * How a route with several `targets` picks the first one per request: `weighted` random by
   * `weight` (default), `least-in-flight` (fewest calls open on it, per weight), or
   * `lowest-latency` (lowest recent time to the response head, exponentially weighted).
   */
  strategy?: RouteStrategy;
  /**
   * Keeps one principal's requests with the same prompt prefix on the same target while it is
   * available, so the upstream's prompt cache keeps hitting. Default false.
   */
  affinity?: AffinityOption;
  /**
   * When every target (and fallback) is cooling after failures: `try`
   * sends to them anyway, in order (default: a target with nowhere else to
   * go is tried, and a success ends its cooldown); `reject` answers at once
   * (chat 503 `upstream_cooling` / messages 529 `overloaded_error`, with
   * `retry-after`). Either way, targets cooling on an upstream's own
   * `retry-after` (a 429, or a 503 that carried one) are not called before
   * it passes: when every target waits on one, the call gets 429 (or
   * 503 / 529) with the seconds left.
   */
  whenAllCooling?: WhenAllCooling;
  /**
   * `false` keeps the route's requests out of the gateway's response cache
   * (`cache` option): never looked up, never stored. Default: the gateway's
   * `cache` applies.
   */
  cache?: false;
}

/** A route served by one upstream. */
export interface SingleUpstreamRoute extends RouteCommon {
  upstream: Upstream;
  /** The primary upstream's id for the model. Default: the requested id. */
  model?: ModelRename;
  targets?: undefined;
}

/** A route served by several deployments of the model, chosen per request by `strategy`. */
export interface DeploymentsRoute extends RouteCommon {
  /** The deployments, tried in the strategy's order (failover) before the `fallbacks`. */
  targets: readonly DeploymentTarget[];
  upstream?: undefined;
  model?: undefined;
}

/** One routing rule: `upstream` (with `model`), or `targets`. */
export type Route = SingleUpstreamRoute | DeploymentsRoute;

/** One upstream to try, with the model id to send it. */
export interface RouteTarget {
  upstream: Upstream;
  model: string;
  /** Its share of the route's traffic (deployments only). Default 1. */
  weight?: number;
}
