/**
 * Sends one model call to a route's targets (with retries and fallbacks)
 * and turns the upstream's answer into the pieces the handlers need: a
 * parsed JSON body, a relayed byte body, or an error in the caller's terms.
 *
 * @internal
 */
import { steersTarget } from '../upstreams/caller-steering.js';
import { performance } from 'node:perf_hooks';
import { GatewayError } from '../errors.js';
import type { CacheFill } from '../cache/cache-fill.js';
import type { CacheResult } from '../cache/cache-types.js';
import type { CallObservation } from '../observability/call-observation.js';
import type { GatewayContext } from '../gateway-context.js';
import { readUpstreamError } from '../upstreams/read-upstream-error.js';
import type { Redactor } from '../redact/redactor.js';
import { requestRedactor } from '../redact/gateway-redactor.js';
import { isRelayedResponseHeader, type RelayedHeaderOptions } from '../upstreams/response-headers.js';
import type { RouteTarget } from '../routing/routes.js';
import { orderTargets } from '../routing/order-targets.js';
import { CallTracker } from '../routing/track-calls.js';
import type { CallPlan } from '../routing/call-plan.js';
import { type AttemptRecord, sendWithFallback } from '../routing/send-with-fallback.js';
import { createTargetGate, type TargetGate } from '../routing/target-gate.js';
import { credentialScope } from '../routing/credential-scope.js';
import type { AttemptHealth } from '../routing/health.js';
import { overloadedError, SHUT_DOWN_WAITING } from '../routing/overloaded.js';
import type { Upstream, UpstreamCall, UpstreamOperation, UpstreamResponse, UpstreamSealing } from '../upstreams/upstream.js';
import { type RequestDeadline, startDeadline } from '../signals/request-deadline.js';

export type { CallPlan } from '../routing/call-plan.js';
import { type AbortSource, abortSourceOf, AbortTrigger, LightSignalHolder } from '../signals/abort-source.js';
import { assertClientPresent } from '../signals/client-left.js';

/**
 * The call handed to an upstream. Its `signal`, the deadline's `AbortSignal`, is made only for
 * upstreams that read it (a spread copy reads it); the built-in ones listen on the deadline's light
 * source (`abortSourceOf`) unless a wrapper assigns its own.
 */
class LightUpstreamCall extends LightSignalHolder implements UpstreamCall {
  declare operation: UpstreamOperation;
  declare stream: boolean;
  declare headers: Record<string, string>;
  declare signal: AbortSignal;
  declare body?: unknown;
  declare rawBody?: Uint8Array;
  declare callerKey?: string;
  declare sealing?: UpstreamSealing;

  constructor(plan: CallPlan, headers: Record<string, string>, deadline: AbortSource, callerKey: string | undefined) {
    super();
    this.operation = plan.operation;
    this.stream = plan.stream;
    this.headers = headers;
    this.defineSignal(deadline);
    if (plan.rawBody !== undefined) this.rawBody = plan.rawBody;
    else this.body = plan.body;
    if (callerKey !== undefined) this.callerKey = callerKey;
    if (plan.sealing !== undefined) this.sealing = plan.sealing;
  }
}

export interface SentCall<P extends CallPlan> {
  response: UpstreamResponse;
  plan: P;
  attempts: AttemptRecord[];
  /** `performance.now()` when the response head arrived. */
  headAt: number;
  /** The request's deadline: released once the answer is read whole or refused, cleared when its stream starts (released at its end). */
  deadline: RequestDeadline;
  /** The call's spans and metrics, when observability is on. */
  observation?: CallObservation;
  /** Whether the upstream's rate-limit headers reach the client: only when the call carried the caller's own key (`keyPassthrough`). */
  relayRateLimits: boolean;
  /** Records how the answer's stream ended for its target's health (when cooldowns are on). */
  settleStream?: (outcome: AttemptHealth) => void;
  /** What the response cache did for the call, and on a miss the handle the relay stores the answer through. */
  cache?: SentCache;
}

/** The response cache's part in a sent call. */
export interface SentCache {
  result: CacheResult;
  /** A hit's entry age, whole seconds. */
  ageSeconds?: number;
  /** A miss's fill handle: the relay stores the complete answer through it or releases it. */
  fill?: CacheFill;
}

/**
 * Sends the plan of each target, in the order the routing step gives them
 * (`orderTargets`: the chosen deployment, the route's other deployments, its
 * fallbacks), until one answers (retries and fallbacks per
 * `sendWithFallback`), all within one deadline of
 * `timeoutMs` (0 disables it) that the caller clears once it has read the
 * answer. `signal` (or the deadline) aborts the upstream request.
 */
export async function sendPlans<P extends CallPlan>(
  ctx: GatewayContext,
  plans: readonly P[],
  parentSignal: AbortSource,
  timeoutMs: number,
): Promise<SentCall<P>> {
  const route = ctx.route;
  if (!route) throw new TypeError('sendPlans needs ctx.route');
  // Whatever ran before (a response store lookup, a file fetch, the limits): no call for a client that left.
  const client = clientAbort(ctx);
  assertClientPresent(client);
  const headersOf = callerHeaders(ctx);
  // Only the key that verified is forwarded, never another header's unchecked value.
  const callerKey = route.keyPassthrough ? ctx.credential : undefined;
  // The upstream answers the caller's own key: its health (a 401, a 429 on that key) is that caller's alone.
  const healthScope = callerKey === undefined ? undefined : credentialScope(callerKey);
  const planOf = (target: RouteTarget): P => {
    const plan = plans.find((candidate) => candidate.target === target);
    if (!plan) throw new TypeError('no plan for target');
    return plan;
  };
  const observation = ctx.observer?.call(ctx);
  // The routing step: this request's order of the route's targets.
  const order = orderTargets(route, plans.map((plan) => plan.target), { principalId: ctx.principal?.id, body: plans[0]?.body, healthScope });
  if (observation && order.decision) observation.routing = order.decision;
  const tracker = route.balancer ? new CallTracker(route.balancer.stats) : undefined;
  const makeCall = (target: RouteTarget): UpstreamCall => {
    const plan = planOf(target);
    tracker?.starting(target);
    const headers = headersOf(target.upstream);
    return new LightUpstreamCall(plan, observation ? observation.attempt(target, plan, headers) : headers, deadline.source, callerKey);
  };
  const onAttempt = tracker && observation
    ? (record: AttemptRecord): void => {
        tracker.attempted(record);
        observation.attempted(record);
      }
    : (tracker ? (record: AttemptRecord): void => tracker.attempted(record) : observation?.attempted);
  const deadline = startDeadline(parentSignal, timeoutMs);
  // A shutdown past its grace period ends a non-streamed call still waiting for its answer (streams are interrupted by the relay).
  if (ctx.slot && plans[0]?.stream !== true) ctx.slot.whileWaiting(() => deadline.cancel(overloadedError(ctx.format, SHUT_DOWN_WAITING, 1)));
  const signal = deadline.source;
  const gate: TargetGate | undefined = ctx.health
    ? createTargetGate({
        tracker: ctx.health,
        format: ctx.format,
        ...(route.route.whenAllCooling !== undefined ? { whenAllCooling: route.route.whenAllCooling } : {}),
        ...(healthScope !== undefined ? { scope: healthScope } : {}),
        ...(observation ? { onSkip: observation.skipped } : {}),
        callerDirected: (target) => steersTarget(headersOf(target.upstream), target.upstream.callerHeaderPrefixes),
      })
    : undefined;
  let result;
  try {
    result = await sendWithFallback(order.targets, makeCall, {
      signal,
      // A drained stream's upstream signal does not follow the client: each attempt checks it.
      ...(client !== parentSignal ? { client } : {}),
      deadlineAt: deadline.at,
      ...(route.route.retries !== undefined ? { retries: route.route.retries } : {}),
      ...(onAttempt ? { onAttempt } : {}),
      ...(gate ? { health: gate } : {}),
    });
  } catch (error) {
    deadline.release();
    tracker?.failed();
    observation?.failed();
    throw error;
  }
  // What the upstream that answered left out of the call, for the caller (`x-modelgate-warnings`).
  if (result.response.warnings) for (const warning of result.response.warnings) if (!ctx.warnings.includes(warning)) ctx.warnings.push(warning);
  const sent: SentCall<P> = {
    response: result.response,
    plan: planOf(result.target),
    attempts: result.attempts,
    headAt: performance.now(),
    deadline: tracker ? tracker.answered(deadline) : deadline,
    relayRateLimits: callerKey !== undefined,
  };
  if (observation) sent.observation = observation;
  if (gate) sent.settleStream = gate.streamSettler(result.target);
  return sent;
}

/**
 * The caller headers of each upstream's calls (the allow-list of its format,
 * plus an in-process upstream's own control prefixes), picked once per
 * upstream of the request, with the gateway's hop mark (`via`): a gateway
 * that meets its own mark again refuses the request (508) instead of looping.
 */
function callerHeaders(ctx: GatewayContext): (upstream: Upstream) => Record<string, string> {
  let first: { upstream: Upstream; headers: Record<string, string> } | undefined;
  let others: Map<Upstream, Record<string, string>> | undefined;
  const pick = (upstream: Upstream): Record<string, string> => {
    const headers = ctx.forwarding.pick(ctx.request.headers, upstream);
    if (ctx.via !== undefined) headers.via = ctx.via;
    return headers;
  };
  return (upstream) => {
    // Most requests call one upstream: no map for them.
    if (first === undefined) first = { upstream, headers: pick(upstream) };
    if (first.upstream === upstream) return first.headers;
    others ??= new Map();
    let headers = others.get(upstream);
    if (headers === undefined) others.set(upstream, (headers = pick(upstream)));
    return headers;
  };
}


/**
 * Response headers worth relaying (`isRelayedResponseHeader`: rate limits only with `rateLimits`);
 * the upstream's request id is renamed so the gateway's own stays authoritative.
 */
export function relayedHeaders(response: UpstreamResponse, options: RelayedHeaderOptions = {}): Record<string, string> {
  const out: Record<string, string> = {};
  let requestId: string | undefined;
  let xRequestId: string | undefined;
  // Built in one pass without `delete` (which would turn the object into a slow dictionary for the writer).
  for (const name of Object.keys(response.headers)) {
    if (!isRelayedResponseHeader(name, options)) continue;
    const lower = name.toLowerCase();
    const value = response.headers[name]!;
    if (lower === 'request-id') requestId = value;
    else if (lower === 'x-request-id') xRequestId = value;
    else out[lower] = value;
  }
  const upstreamId = requestId ?? xRequestId;
  if (upstreamId !== undefined) out['upstream-request-id'] = upstreamId;
  return out;
}

/**
 * The error for a non-2xx upstream answer. A 401/403 from an upstream called
 * with the gateway's own key is the gateway's misconfiguration, not the
 * caller's: it becomes a 502 so clients do not blame their own key.
 */
export async function upstreamFailure(ctx: GatewayContext, sent: SentCall<CallPlan>, gatewayRedactor: Redactor): Promise<GatewayError> {
  const name = sent.plan.target.upstream.name;
  const rateLimits = { rateLimits: sent.relayRateLimits };
  const error = await readUpstreamError(sent.response, name, { redactor: requestRedactor(gatewayRedactor, ctx), ...rateLimits });
  const credentials = error.status === 401 || error.status === 403;
  if (!credentials || ctx.route?.keyPassthrough) {
    return new GatewayError(error.code, error.message, {
      status: error.status,
      param: error.param,
      chatCode: error.chatCode,
      ...(error.messagesType ? { messagesType: error.messagesType } : {}),
      ...(error.chatType ? { chatType: error.chatType } : {}),
      headers: relayedHeaders({ ...sent.response, headers: error.headers }, rateLimits),
    });
  }
  return new GatewayError('UPSTREAM_ERROR', `Upstream "${name}" refused the gateway's credentials (HTTP ${error.status}); the gateway's upstream key needs fixing.`, {
    status: 502,
    // The upstream's own 401/403 (fixed text, no vendor message): failure reports tell it from a relayed 502.
    cause: error,
  });
}

/** The client's abort source: the adapter's light one when it has one, else `signal`. */
export function clientAbort(ctx: GatewayContext): AbortSource {
  return abortSourceOf(ctx.request);
}

/** What aborts the upstream request: the client leaving, unless the route drains streams for accounting. */
export function upstreamSignal(ctx: GatewayContext, stream: boolean): AbortSource {
  if (stream && ctx.route?.onClientAbort === 'drain') return new AbortTrigger();
  return clientAbort(ctx);
}
