/**
 * The limits step of a model call: plan the checks of the caller's rules,
 * reserve them in the store (429 with `retry-after` when they do not fit,
 * before anything is sent upstream), run the call, and settle to the actual
 * usage when its last upstream call ends (or it fails, or the client leaves).
 * Retries and fallbacks happen inside the call: the reservation is made
 * once and settled once, whatever the number of attempts.
 *
 * It reads only the few fields of a {@link LimitRequest} and hands the call
 * a {@link LimitAdmission} (headers, usage recorder, progress hook) to
 * apply: it never sees or changes the request context.
 *
 * @internal
 */
import { estimateCall, loadedTokenCounters, loadTokenCounters, upstreamCalls } from './estimate-call.js';
import { guardStore, type Reservation } from './guarded-store.js';
import { limitHeaders } from './limit-headers.js';
import type { LimitRule, LimitsOptions } from './limit-options.js';
import type { LimitAdmission, LimitRequest, RecordUsage } from './limit-request.js';
import type { LeaseRenewal, LimitStore } from './limit-store.js';
import { memoryLimitStore } from './memory-limit-store.js';
import { type CallEstimate, type LimitPlan, type PlanInput, planLimits } from './plan-limits.js';
import { refusal } from './refusal.js';
import { needsEstimate, type RuleSet, ruleSet } from './rule-set.js';
import { createSettlement, RunningRequests, type Settlement } from './settlement.js';
import { resolveStoreErrorPolicy } from './store-error-policy.js';
import { abortSourceOf } from '../signals/abort-source.js';
import { isBodyEndpoint, isTokenCount } from '../match-endpoint.js';

export type { LimitAdmission, LimitRequest, LimitRoute, RecordUsage } from './limit-request.js';

/** Runs a model call; `admission` is `undefined` when no limit applies to the request. */
export type LimitedCall<T> = (admission: LimitAdmission | undefined) => Promise<T>;

export interface Limiter {
  /**
   * Runs `call` under the caller's limits (model calls and token counts;
   * other endpoints, and requests no rule applies to, run as they are, with
   * no admission).
   * A refusal rejects with the 429 (its limit headers on the error) before
   * `call` runs; an admitted request is settled when its usage is in, or
   * when `call` rejects.
   */
  run<T>(request: LimitRequest, call: LimitedCall<T>): Promise<T>;
  /** Stops renewing leases (the gateway is closing). */
  close(): void;
}

/** After a client leaves, the relay reports its usage at once; this only catches a response never started. */
const ABORT_SETTLE_MS = 2000;
/** Shortest renewal period (leases under 75 ms cannot be kept alive; no one sets those). */
const RENEW_FLOOR_MS = 50;

/** Never called: planLimits asks for the size only for token and budget rules, which come with an estimate. */
const NO_ESTIMATE = (): CallEstimate => {
  throw new Error('limits: a token or budget rule without an estimate');
};

/** Calls `call`, turning a synchronous throw into a rejection (the reservation is then settled like any failure). */
function invoke<T>(call: LimitedCall<T>, admission: LimitAdmission | undefined): Promise<T> {
  try {
    return call(admission);
  } catch (error) {
    return Promise.reject(error);
  }
}

function holdsLease(plan: LimitPlan): boolean {
  for (const check of plan.checks) if (check.kind === 'concurrency') return true;
  return false;
}

/** Builds the limiter for the `limits` option. */
export function createLimiter(options: LimitsOptions): Limiter {
  const defaultRules = ruleSet(options.rules ?? []);
  const compiled = new WeakMap<readonly LimitRule[], RuleSet>();
  const rulesOf = (own: readonly LimitRule[] | undefined): RuleSet => {
    if (!own) return defaultRules;
    let rules = compiled.get(own);
    if (!rules) compiled.set(own, (rules = ruleSet(own)));
    return rules;
  };
  const guarded = guardStore(options.store ?? memoryLimitStore(), {
    policy: resolveStoreErrorPolicy(options.onStoreError),
    timeoutMs: options.storeTimeoutMs ?? 250,
    retryMs: options.storeRetryMs ?? 1000,
    onFailure: options.onStoreFailure,
    bounded: options.store !== undefined,
  });
  const expectedOutputTokens = options.expectedOutputTokens ?? 4096;
  const leaseMs = (options.concurrencyLeaseSeconds ?? 600) * 1000;
  if (needsEstimate(defaultRules.all)) void loadTokenCounters();

  // A lease outlives a crashed instance's request by at most `leaseMs`; a request still running
  // (a long stream) has its leases renewed every third of that, so it keeps counting to its end.
  // A lease joins at any point of the timer's period and is renewed once at least half a period
  // old, so it must last more than one and a half periods: the floor only caps the timer's rate.
  const running = new RunningRequests();
  const renewEveryMs = Math.max(RENEW_FLOOR_MS, leaseMs / 3);
  let renewTimer: NodeJS.Timeout | undefined;
  const renewRunning = (): void => {
    const now = Date.now();
    const byStore = new Map<LimitStore, LeaseRenewal[]>();
    running.forEach((settlement) => {
      const due = settlement.dueRenewal(now, renewEveryMs / 2);
      if (due === undefined) return;
      const leases = byStore.get(settlement.store);
      if (leases) leases.push(...due);
      else byStore.set(settlement.store, due);
    });
    for (const [store, leases] of byStore) guarded.renew(store, leases);
  };
  const track = (plan: LimitPlan): RunningRequests | undefined => {
    if (!holdsLease(plan)) return undefined;
    // One timer for the whole limiter, never holding the process open.
    renewTimer ??= setInterval(renewRunning, renewEveryMs).unref();
    return running;
  };

  /** Runs `call` for an admitted request and settles when its usage is in (or it fails). */
  const admitted = <T>(
    request: LimitRequest,
    call: LimitedCall<T>,
    plan: LimitPlan,
    { result, store }: Reservation,
    headers: Readonly<Record<string, string>>,
    estimate: CallEstimate | undefined,
    endpoint: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<T> => {
    if (estimate === undefined && (body.stream !== true || isTokenCount(endpoint))) {
      // No token or budget rule (nothing to correct) and no stream (nothing left to relay once the
      // answer is in; a count never streams): the request ends with its call, and no usage needs to be read for the limits.
      const settlement = createSettlement(guarded, store, plan, result, undefined, 1, undefined, track(plan));
      return invoke(call, { headers, recordUsage: undefined, touch: undefined }).then(
        (response) => {
          settlement.finish();
          return response;
        },
        (error: unknown) => {
          settlement.finish();
          throw error;
        },
      );
    }
    const { route } = request;
    const calls = upstreamCalls(endpoint, body, route);
    let settlement: Settlement;
    if (body.stream === true && route?.onClientAbort !== 'drain') {
      // Backstop for a stream never started when the client left (a started one reports its usage; a
      // non-streamed call fails or reports when its upstream call is aborted).
      const signal = abortSourceOf(request.client);
      const onAbort = (): void => void setTimeout(() => settlement.finish(), ABORT_SETTLE_MS).unref();
      settlement = createSettlement(guarded, store, plan, result, estimate, calls, () => signal.removeEventListener('abort', onAbort), track(plan));
      signal.addEventListener('abort', onAbort, { once: true });
    } else {
      settlement = createSettlement(guarded, store, plan, result, estimate, calls, undefined, track(plan));
    }
    const recordUsage: RecordUsage = (status, usage, aborted) => settlement.record(status, usage, aborted);
    let touch: (() => void) | undefined;
    if (body.stream === true && settlement.store.renew !== undefined) {
      // A stream nobody reads any more (dropped unread, a stalled client) is left to its lease, as
      // its slot would be if this instance had died; a non-streamed call ends by its deadline.
      settlement.renewOnlyOnProgress();
      touch = () => settlement.touch();
    }
    return invoke(call, { headers, recordUsage, touch }).catch((error: unknown) => {
      settlement.finish();
      throw error;
    });
  };

  /** The reservation's headers for the caller's interface; a refusal throws the 429 (carrying them). */
  const answer = (request: LimitRequest, plan: LimitPlan, { result }: Reservation): Record<string, string> => {
    const headers = limitHeaders(request.format, plan.meters, result.states, result.now);
    if (!result.ok) throw refusal(plan, result.states, headers);
    return headers;
  };

  /**
   * The asynchronous path: a token or budget rule applies (`planned` undefined: the prompt is
   * counted, once per request, here, and the tokenizer may have to load first), or the store
   * answers later (Redis, a custom one; `planned` is the plan already made).
   */
  const runLater = async <T>(
    request: LimitRequest,
    call: LimitedCall<T>,
    input: PlanInput,
    endpoint: string,
    body: Readonly<Record<string, unknown>>,
    planned?: LimitPlan,
  ): Promise<T> => {
    let estimate: CallEstimate | undefined;
    let plan = planned;
    if (plan === undefined) {
      // A Responses request's stored items count too: resolved here, before the reservation (the handler reuses them).
      const prompt = request.prompt ? await request.prompt() : undefined;
      const tokens = loadedTokenCounters() ?? (await loadTokenCounters());
      estimate = estimateCall(tokens, { endpoint, body, route: request.route, prompt, expectedOutputTokens });
      input.estimate = estimate;
      plan = planLimits(input);
    }
    const reservation = guarded.reserveNow(plan.checks) ?? (await guarded.reserve(plan.checks, plan.meters));
    const headers = answer(request, plan, reservation);
    return admitted(request, call, plan, reservation, headers, estimate, endpoint, body);
  };

  return {
    run(request, call) {
      const { endpoint, principal, body } = request;
      if (!isBodyEndpoint(endpoint) || !principal || !body) return invoke(call, undefined);
      const model = String(body.model);
      const own = rulesOf(principal.limits);
      const { rules, sized } = isTokenCount(endpoint) ? own.forCount(model) : own.forModel(model);
      if (rules.length === 0) return invoke(call, undefined);
      const input: PlanInput = { principalId: principal.id, model, rules, estimate: NO_ESTIMATE, prices: options.prices, leaseMs };
      if (sized) return runLater(request, call, input, endpoint, body);
      // No promise of its own when the store answers at once (the in-memory one): a request limit costs a few µs.
      const plan = planLimits(input);
      const reservation = guarded.reserveNow(plan.checks);
      if (reservation === undefined) return runLater(request, call, input, endpoint, body, plan);
      let headers: Record<string, string>;
      try {
        headers = answer(request, plan, reservation);
      } catch (error) {
        return Promise.reject(error);
      }
      return admitted(request, call, plan, reservation, headers, undefined, endpoint, body);
    },
    close() {
      clearInterval(renewTimer);
      renewTimer = undefined;
    },
  };
}
