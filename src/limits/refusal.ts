/**
 * The 429 for a reservation the store refused, worded for the caller: what
 * the request needs against each limit, and either the real wait until every
 * check fits or, for a request larger than a limit's whole capacity, that
 * waiting cannot help (no `retry-after`, `x-should-retry: false`).
 *
 * 429 in both cases, as the vendors answer a request above a per-minute
 * token limit ("Request too large ... Limit 30000, Requested 50000").
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { CheckState, LimitCheck } from './limit-store.js';
import type { LimitPlan, Meter } from './plan-limits.js';

const MICRO = 1_000_000;

/** A duration for a message: `1.5 s`, `60 s`, `1 d`. */
export function seconds(ms: number): string {
  if (ms >= 86_400_000 && ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  const value = ms / 1000;
  return value >= 10 ? `${Math.ceil(value)} s` : `${Number(value.toFixed(1))} s`;
}

/** An amount of the price table's currency, from millionths (at most six decimals, no trailing zeros). */
function money(micros: number): string {
  return String(Number((micros / MICRO).toFixed(6)));
}

/** The tokens a request needs against a token limit, with what they are made of. */
function tokensNeeded(meter: Extract<Meter, { kind: 'tokens' }>): string {
  switch (meter.count) {
    case 'input':
      return `${meter.reserved} input tokens (estimated)`;
    case 'output':
      return `${meter.reserved} output tokens (max_tokens × n)`;
    case 'input+output':
      return `${meter.reserved} tokens (estimated: ${meter.input} input + ${meter.output} output, max_tokens × n)`;
  }
}

/** Why one check refused: temporarily (it fits after a wait) or for good (`never`). */
function describe(meter: Meter, state: CheckState, check: LimitCheck, never: boolean): string {
  switch (meter.kind) {
    case 'requests': {
      const window = seconds(check.kind === 'bucket' ? check.windowMs : 60_000);
      return never ? `requests: the limit is ${meter.limit} per ${window}, so none can pass` : `requests: ${meter.limit} per ${window}`;
    }
    case 'tokens': {
      const limit = `${meter.limit} per ${seconds(meter.windowMs)}`;
      return never
        ? `tokens: this request needs ${tokensNeeded(meter)}, more than the whole limit of ${limit}`
        : `tokens: this request needs ${tokensNeeded(meter)} of ${limit}, ${state.remaining} left`;
    }
    case 'concurrent':
      return never ? `concurrent requests: the limit is ${meter.limit}, so none can run` : `concurrent requests: at most ${meter.limit} at once`;
    case 'budget': {
      const budget = `${meter.limit} per ${seconds(meter.periodMs)}`;
      const cost = `may cost up to ${money(meter.reserved)} (estimated at the configured prices)`;
      return never
        ? `budget: this request ${cost}, more than the whole budget of ${budget}`
        : `budget: this request ${cost} and ${money(state.remaining)} of the ${budget} is left`;
    }
  }
}

/** The 429 for a refused reservation; `headers` are the caller's limit headers. */
export function refusal(plan: LimitPlan, states: readonly CheckState[], headers: Record<string, string>): GatewayError {
  const failed = plan.meters.map((meter, index) => ({ meter, state: states[index]!, check: plan.checks[index]! })).filter(({ state }) => state.retryAfterMs !== 0);
  const neverFits = failed.filter(({ state }) => state.retryAfterMs < 0);
  const budget = (neverFits.length > 0 ? neverFits : failed).some(({ meter }) => meter.kind === 'budget');
  const out = { ...headers };
  let message: string;
  if (neverFits.length > 0) {
    // Waiting cannot help: only the limits the request is too large for are named, and no retry-after is sent.
    const reasons = neverFits.map(({ meter, state, check }) => describe(meter, state, check, true)).join('; ');
    const sized = neverFits.some(({ meter }) => meter.kind === 'tokens' || meter.kind === 'budget');
    const fix = sized ? 'make it smaller (fewer input tokens, a lower max_tokens or n) or ask for a higher limit' : 'ask for a higher limit';
    message = `This request can never fit this key's limits, however long it waits (${reasons}): ${fix}.`;
    out['x-should-retry'] = 'false';
  } else {
    const waitMs = Math.max(...failed.map(({ state }) => state.retryAfterMs));
    const reasons = failed.map(({ meter, state, check }) => describe(meter, state, check, false)).join('; ');
    message = `Rate limit reached for this key (${reasons}). Retry in ${seconds(waitMs)}.`;
    out['retry-after'] = String(Math.max(1, Math.ceil(waitMs / 1000)));
    out['retry-after-ms'] = String(Math.max(1, Math.ceil(waitMs)));
    // A spent budget comes back with the next period: clients' quick automatic retries cannot help.
    if (budget) out['x-should-retry'] = 'false';
  }
  return new GatewayError('RATE_LIMITED', message, {
    chatCode: budget ? 'insufficient_quota' : 'rate_limit_exceeded',
    ...(budget ? { chatType: 'insufficient_quota' } : {}),
    messagesType: 'rate_limit_error',
    headers: out,
  });
}
