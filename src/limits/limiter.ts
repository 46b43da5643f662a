/**
 * The limits step of a model call: plan the checks of the caller's rules,
 * reserve them in the store (429 with `retry-after` when they do not fit,
 * before anything is sent upstream), run the call, and settle to the actual
 * usage when its last upstream call ends (or it fails, or the client leaves).
 * Retries and fallbacks happen inside the call: the reservation is made
 * once and settled once, whatever the number of attempts.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayResponse } from '../types.js';
import { estimateCall, loadedTokenCounters, loadTokenCounters, upstreamCalls } from './estimate-call.js';
import { guardStore, type Reservation } from './guarded-store.js';
import { limitHeaders } from './limit-headers.js';
import type { LimitRule, LimitsOptions } from './limit-options.js';
import type { LeaseRenewal, LimitStore } from './limit-store.js';
import { memoryLimitStore } from './memory-limit-store.js';
import { type CallEstimate, compileRules, type CompiledRule, type LimitPlan, type PlanInput, planLimits } from './plan-limits.js';
import { refusal } from './refusal.js';
import { createSettlement, RunningRequests, type Settlement } from './settlement.js';
import { abortSourceOf } from '../signals/abort-source.js';

export interface Limiter {
  /** Runs `call` under the caller's limits (model-call endpoints only; others run as they are). */
  run(ctx: GatewayContext, call: () => Promise<GatewayResponse>): Promise<GatewayResponse>;
  /** Stops renewing leases (the gateway is closing). */
  close(): void;
}

const LIMITED_ENDPOINTS = new Set(['chat.completions', 'messages', 'responses.create']);
/** After a client leaves, the relay reports its usage at once; this only catches a response never started. */
const ABORT_SETTLE_MS = 2000;

/** Never called: planLimits asks for the size only for token and budget rules, which come with an estimate. */
const NO_ESTIMATE = (): CallEstimate => {
  throw new Error('limits: a token or budget rule without an estimate');
};

function holdsLease(plan: LimitPlan): boolean {
  for (const check of plan.checks) if (check.kind === 'concurrency') return true;
  return false;
}

function needsEstimate(rules: readonly CompiledRule[]): boolean {
  return rules.some((rule) => rule.rule.tokens !== undefined || rule.rule.budget !== undefined);
}

/** The rules that apply to one model, and whether they need the request's size. */
interface Applicable {
  rules: CompiledRule[];
  sized: boolean;
}

interface RuleSet {
  all: CompiledRule[];
  /** The rules that apply to `model` (remembered for the first 1000 model ids). */
  forModel(model: string): Applicable;
}

function ruleSet(rules: readonly LimitRule[]): RuleSet {
  const all = compileRules(rules);
  const byModel = new Map<string, Applicable>();
  return {
    all,
    forModel(model) {
      let applicable = byModel.get(model);
      if (applicable) return applicable;
      const matching = all.filter((rule) => rule.matches(model));
      applicable = { rules: matching, sized: needsEstimate(matching) };
      if (byModel.size < 1000) byModel.set(model, applicable);
      return applicable;
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
  const running = new RunningRequests();
  const renewEveryMs = Math.max(250, leaseMs / 3);
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
  const admitted = (
    ctx: GatewayContext,
    call: () => Promise<GatewayResponse>,
    plan: LimitPlan,
    { result, store }: Reservation,
    estimate: CallEstimate | undefined,
    endpoint: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<GatewayResponse> => {
    if (estimate === undefined && body.stream !== true) {
      // No token or budget rule (nothing to correct) and no stream (nothing left to relay once the
      // answer is in): the request ends with its call, and no usage needs to be read for the limits.
      const settlement = createSettlement(guarded, store, plan, result, undefined, 1, undefined, track(plan));
      return call().then(
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
    const calls = upstreamCalls(endpoint, body, ctx.route);
    let settlement: Settlement;
    if (body.stream === true && ctx.route?.onClientAbort !== 'drain') {
      // Backstop for a stream never started when the client left (a started one reports its usage; a
      // non-streamed call fails or reports when its upstream call is aborted).
      const signal = abortSourceOf(ctx.request);
      const onAbort = (): void => void setTimeout(() => settlement.finish(), ABORT_SETTLE_MS).unref();
      settlement = createSettlement(guarded, store, plan, result, estimate, calls, () => signal.removeEventListener('abort', onAbort), track(plan));
      signal.addEventListener('abort', onAbort, { once: true });
    } else {
      settlement = createSettlement(guarded, store, plan, result, estimate, calls, undefined, track(plan));
    }
    ctx.limitUsage = (status, usage, aborted) => settlement.record(status, usage, aborted);
    if (body.stream === true && settlement.store.renew !== undefined) {
      // A stream nobody reads any more (dropped unread, a stalled client) is left to its lease, as
      // its slot would be if this instance had died; a non-streamed call ends by its deadline.
      settlement.renewOnlyOnProgress();
      ctx.limitTouch = () => settlement.touch();
    }
    return call().catch((error: unknown) => {
      settlement.finish();
      throw error;
    });
  };

  /** Applies the reservation's headers; a refusal throws the 429. */
  const answer = (ctx: GatewayContext, plan: LimitPlan, { result }: Reservation): void => {
    const headers = limitHeaders(ctx.format, plan.meters, result.states, result.now);
    ctx.limitHeaders = headers;
    if (!result.ok) throw refusal(plan, result.states, headers);
  };

  /**
   * The asynchronous path: a token or budget rule applies (`planned` undefined: the prompt is
   * counted, once per request, here, and the tokenizer may have to load first), or the store
   * answers later (Redis, a custom one; `planned` is the plan already made).
   */
  const runLater = async (
    ctx: GatewayContext,
    call: () => Promise<GatewayResponse>,
    input: PlanInput,
    endpoint: string,
    body: Readonly<Record<string, unknown>>,
    planned?: LimitPlan,
  ): Promise<GatewayResponse> => {
    let estimate: CallEstimate | undefined;
    let plan = planned;
    if (plan === undefined) {
      estimate = estimateCall(loadedTokenCounters() ?? (await loadTokenCounters()), endpoint, body, ctx.route, expectedOutputTokens);
      input.estimate = estimate;
      plan = planLimits(input);
    }
    const reservation = guarded.reserveNow(plan.checks) ?? (await guarded.reserve(plan.checks));
    answer(ctx, plan, reservation);
    return admitted(ctx, call, plan, reservation, estimate, endpoint, body);
  };

  return {
    run(ctx, call) {
      const endpoint = ctx.endpoint?.name;
      const principal = ctx.principal;
      const body = ctx.body;
      if (!endpoint || !LIMITED_ENDPOINTS.has(endpoint) || !principal || !body) return call();
      const model = String(body.model);
      const { rules, sized } = rulesOf(principal.limits).forModel(model);
      if (rules.length === 0) return call();
      const input: PlanInput = { principalId: principal.id, model, rules, estimate: NO_ESTIMATE, prices: options.prices, leaseMs };
      if (sized) return runLater(ctx, call, input, endpoint, body);
      // No promise of its own when the store answers at once (the in-memory one): a request limit costs a few µs.
      const plan = planLimits(input);
      const reservation = guarded.reserveNow(plan.checks);
      if (reservation === undefined) return runLater(ctx, call, input, endpoint, body, plan);
      try {
        answer(ctx, plan, reservation);
      } catch (error) {
        return Promise.reject(error);
      }
      return admitted(ctx, call, plan, reservation, undefined, endpoint, body);
    },
    close() {
      clearInterval(renewTimer);
      renewTimer = undefined;
    },
  };
}
