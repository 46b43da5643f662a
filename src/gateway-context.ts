/**
 * The per-request state that the gateway's steps (authenticate, validate,
 * enforce rules, dispatch) read and fill in. Adapters keep it between their
 * middlewares so users can run their own code between the steps.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { CacheResult } from './cache/cache-types.js';
import type { GatewayError } from './errors.js';
import { type Endpoint, matchEndpoint } from './match-endpoint.js';
import type { ModelEntry } from './models/catalog.js';
import type { RequestObservation } from './observability/request-observation.js';
import type { GatewayRequest, Principal, WireFormat } from './types.js';
import type { CallSlot } from './routing/call-slot.js';
import type { ResolvedRoute } from './routing/routes.js';
import type { ViaHops } from './upstreams/via-hops.js';
import type { HealthTracker } from './routing/health.js';
import { DEFAULT_FORWARDING, type HeaderForwarding } from './upstreams/forward-headers.js';
import type { TokenUsage } from './usage.js';

export interface GatewayContext {
  readonly request: GatewayRequest;
  /** Sent back as `request-id` and `x-request-id` on every response. */
  readonly requestId: string;
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number;
  /** The interface the caller used: errors are rendered in it. */
  readonly format: WireFormat;
  /** The endpoint, or the 404/405 error for paths that have none. */
  readonly endpoint: Endpoint | undefined;
  readonly routingError: GatewayError | undefined;
  /** The 508 of a request that loops (its `Via` holds this gateway's own entry): every step throws it first. */
  readonly refusal: GatewayError | undefined;
  /** The `Via` the request's upstream calls carry (the modelgate entries it came with, then this gateway's). */
  readonly via: string | undefined;
  /** Which caller headers the request's upstream calls carry (the gateway's `forwardHeaders` on top of each format's defaults). */
  readonly forwarding: HeaderForwarding;
  /** Set by `authenticate`. */
  principal?: Principal;
  /** The caller's key that verified (only forwarded by routes with `keyPassthrough`). */
  credential?: string;
  /** The validated body (set by `validate`) for the POST endpoints. */
  body?: Record<string, unknown>;
  /** True once the body differs from the bytes that arrived (rename, dropped fields). */
  bodyChanged: boolean;
  /** Set by `enforceRules` for model calls. */
  route?: ResolvedRoute;
  /** The catalog row of the requested model, when it has one. */
  model?: ModelEntry;
  /** Parameters removed by `dropUnsupportedParams`. */
  dropped: string[];
  /** `thinking` conversions made by `adaptThinking`, sent as `x-modelgate-adapted-thinking`. */
  adaptations: string[];
  /** Notes about the translation (dropped hints, emulations), sent as `x-modelgate-warnings`. */
  warnings: string[];
  /** The caller's rate-limit headers, set by the limits step (`limits` option). */
  limitHeaders?: Record<string, string>;
  /** Receives each upstream call's usage, to correct the limits' reservation. */
  limitUsage?: (status: number, usage: TokenUsage, aborted: boolean) => void;
  /** Told each time a streamed answer moves on (read, or drained after its client left), so its leases are renewed only while it does. @internal */
  limitTouch?: () => void;
  /** Set by `begin` when an observability option is set (traces, metrics, logs). @internal */
  observer?: RequestObservation;
  /** The gateway's per-target health, set by `begin` unless cooldowns are off. @internal */
  health?: HealthTracker;
  /** The model call's place under admission control, taken before any upstream work. @internal */
  slot?: CallSlot;
  /** What the response cache did (`x-modelgate-cache`, and `age` on a hit); unset without a `cache` option. @internal */
  cache?: { result: CacheResult; ageSeconds?: number };
}

const INCOMING_ID = /^[\w.:\-]{1,128}$/;

function newRequestId(request: GatewayRequest): string {
  const incoming = request.headers['x-request-id'];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  // Reuse a caller's id only when it is safe to echo in a header and a log line.
  if (value !== undefined && INCOMING_ID.test(value)) return value;
  // The UUID's five groups without their dashes: slicing costs about half a regex replace.
  const uuid = randomUUID();
  return `req_${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(14, 18)}${uuid.slice(19, 23)}${uuid.slice(24)}`;
}

/** Starts the context of a request: request id, endpoint, the caller's interface and, given the gateway's `hops`, its `Via`. */
export function createGatewayContext(given: GatewayRequest, hops?: ViaHops, forwarding: HeaderForwarding = DEFAULT_FORWARDING): GatewayContext {
  // JavaScript callers of `handle()` may leave out `signal` (the types require it): such a request is one
  // its client never aborts. `in`, not a read: the node:http adapter's `signal` is made on first read.
  const request = 'signal' in given ? given : { ...(given as GatewayRequest), signal: new AbortController().signal };
  const matched = matchEndpoint(request.method, request.url, request.headers);
  const isError = 'error' in matched;
  const hop = hops?.inspect(request.headers);
  return {
    request,
    requestId: newRequestId(request),
    startedAt: performance.now(),
    format: matched.format,
    endpoint: isError ? undefined : matched,
    routingError: isError ? matched.error : undefined,
    refusal: hop?.refusal,
    via: hop?.via,
    forwarding,
    // Every field a later step sets is present from the start: one object shape for every request,
    // its fields stored in the object (not in a side array grown as steps add them).
    principal: undefined,
    credential: undefined,
    body: undefined,
    bodyChanged: false,
    route: undefined,
    model: undefined,
    dropped: [],
    adaptations: [],
    warnings: [],
    limitHeaders: undefined,
    limitUsage: undefined,
    limitTouch: undefined,
    observer: undefined,
    health: undefined,
    slot: undefined,
    cache: undefined,
  };
}
