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
import { type CallEstimate, compileRules, type CompiledRule, type LimitPlan, type PlanInput, planLimits, ruleKeyCache } from './plan-limits.js';
import { refusal } from './refusal.js';
import { createSettlement, RunningRequests, type Settlement } from './settlement.js';
import { abortSourceOf } from '../signals/abort-source.js';
import { BoundedMap } from '../bounded-map.js';

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

/** The model calls and the token counts: the endpoints the limits step runs for. */
const LIMITED_ENDPOINTS = new Set(['chat.completions', 'messages', 'responses.create', 'messages.count_tokens', 'responses.input_tokens']);
/**
 * The token counts are charged to request-rate rules only: each counts as
 * one request, as a model call does. They reserve no tokens and no spend
 * (they generate nothing, and vendors do not bill counting) and hold no
 * concurrency lease (they are short and never stream; admission control's
 * `maxInFlight` counts them as it counts model calls).
 */
const COUNTING_ENDPOINTS = new Set(['messages.count_tokens', 'responses.input_tokens']);
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

function needsEstimate(rules: readonly CompiledRule[]): boolean {
  return rules.some((rule) => rule.rule.tokens !== undefined || rule.rule.budget !== undefined);
}

/** The rules that apply to one model, and whether they need the request's size. */
export interface Applicable {
  rules: CompiledRule[];
  sized: boolean;
}

/** Model ids whose applicable rules a rule set remembers, the most recently used (a forgotten id only has its rules matched again). */
export const MAX_REMEMBERED_MODELS = 1_000;
/** Characters of those model ids, at most (1 Mi). */
export const MAX_REMEMBERED_MODEL_CHARS = 1_048_576;

/** The compiled rules of one rules array, and the rules that apply to each model. */
export interface RuleSet {
  all: CompiledRule[];
  /** The rules that apply to a call of `model` (remembered for the {@link MAX_REMEMBERED_MODELS} most recent model ids). */
  forModel(model: string): Applicable;
  /** What applies to a token count for `model`: the request-rate part of those rules (remembered alike). */
  forCount(model: string): Applicable;
  /** Model ids remembered (by `forModel`). */
  readonly rememberedModels: number;
}

/** The rule's request-rate limit alone, counting on the same counter (its own key cache: the keys of its other limits differ). */
function requestsOnly(rule: CompiledRule): CompiledRule {
  const { requests, models, eachModel } = rule.rule;
  return { ...rule, rule: { id: rule.id, requests, models, eachModel }, keys: ruleKeyCache(), concurrentMeter: undefined };
}

/** Remembers `make(model)` for the most recent model ids, within a count and a character budget. */
function byModel(make: (model: string) => Applicable): { get(model: string): Applicable; readonly size: number } {
  const known = new BoundedMap<string, Applicable>({ maxEntries: MAX_REMEMBERED_MODELS, maxChars: MAX_REMEMBERED_MODEL_CHARS });
  return {
    get(model) {
      let applicable = known.get(model);
      if (applicable) return applicable;
      applicable = make(model);
      known.set(model, applicable);
      return applicable;
    },
    get size() {
      return known.size;
    },
  };
}

/** Compiles `rules` into a {@link RuleSet}. */
export function ruleSet(rules: readonly LimitRule[]): RuleSet {
  const all = compileRules(rules);
  const counted = all.filter((rule) => rule.rule.requests !== undefined).map(requestsOnly);
  const forModel = byModel((model) => {
    const matching = all.filter((rule) => rule.matches(model));
    return { rules: matching, sized: needsEstimate(matching) };
  });
  const forCount = byModel((model) => ({ rules: counted.filter((rule) => rule.matches(model)), sized: false }));
  return {
    all,
    forModel: (model) => forModel.get(model),
    forCount: (model) => forCount.get(model),
    get rememberedModels() {
      return forModel.size;
    },
  };
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
    policy: options.onStoreError ?? 'open',
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
    if (estimate === undefined && (body.stream !== true || COUNTING_ENDPOINTS.has(endpoint))) {
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
    const reservation = guarded.reserveNow(plan.checks) ?? (await guarded.reserve(plan.checks));
    const headers = answer(request, plan, reservation);
    return admitted(request, call, plan, reservation, headers, estimate, endpoint, body);
  };

  return {
    run(request, call) {
      const { endpoint, principal, body } = request;
      if (!endpoint || !LIMITED_ENDPOINTS.has(endpoint) || !principal || !body) return invoke(call, undefined);
      const model = String(body.model);
      const own = rulesOf(principal.limits);
      const { rules, sized } = COUNTING_ENDPOINTS.has(endpoint) ? own.forCount(model) : own.forModel(model);
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
