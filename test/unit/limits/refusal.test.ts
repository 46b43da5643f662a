/**
 * The 429 of a refused reservation, from plans and the memory store's own
 * answers: a request larger than a limit's whole capacity is told what it
 * needs and what the limit is, without a retry-after; one that fits later
 * is told when.
 */
import { describe, expect, it } from 'vitest';
import type { LimitRule } from '../../../src/limits/limit-options.js';
import { memoryLimitStore, type SyncLimitStore } from '../../../src/limits/memory-limit-store.js';
import { type CallEstimate, compileRules, planLimits } from '../../../src/limits/plan-limits.js';
import { refusal, seconds } from '../../../src/limits/refusal.js';
import { renderError } from '../../../src/render-error.js';

const PRICES = { 'gpt-4o': { input: 2.5, output: 10 } };

/** Plans `rules` for a request of this size, reserves it `times` times in a fresh store, and returns the last answer's refusal. */
function refuse(rules: LimitRule[], estimate: CallEstimate, times = 1) {
  const store = memoryLimitStore({ now: () => 1_700_000_000_000 }) as SyncLimitStore;
  const plan = planLimits({ principalId: 'p', model: 'gpt-4o', rules: compileRules(rules), estimate, prices: PRICES, leaseMs: 60_000 });
  let result = store.reserveNow(plan.checks);
  for (let i = 1; i < times; i++) result = store.reserveNow(plan.checks);
  expect(result.ok).toBe(false);
  return refusal(plan, result.states, {});
}

const small: CallEstimate = { inputTokens: 200, outputTokens: 300, choices: 1, calls: 1 };

describe('refusal: a request that can never fit', () => {
  it('tokens: says how many the request needs (and of what) and what the whole limit is; no retry-after', () => {
    const error = refuse([{ tokens: { limit: 1000 } }], { inputTokens: 800, outputTokens: 2000, choices: 2, calls: 1 });
    expect(error.status).toBe(429);
    expect(error.message).toBe(
      "This request can never fit this key's limits, however long it waits (tokens: this request needs 4800 tokens (estimated: 800 input + 4000 output, max_tokens × n), more than the whole limit of 1000 per 60 s): make it smaller (fewer input tokens, a lower max_tokens or n) or ask for a higher limit.",
    );
    expect(error.headers['retry-after']).toBeUndefined();
    expect(error.headers['retry-after-ms']).toBeUndefined();
    expect(error.headers['x-should-retry']).toBe('false');
    expect(error.chatCode).toBe('rate_limit_exceeded');
    expect(renderError(error, 'messages').body).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: error.message } });
  });

  it('tokens counting input only or output only: names that count', () => {
    expect(refuse([{ tokens: { limit: 100, count: 'input' } }], small).message).toContain('needs 200 input tokens (estimated), more than the whole limit of 100 per 60 s');
    expect(refuse([{ tokens: { limit: 100, count: 'output', windowSeconds: 3600 } }], small).message).toContain(
      'needs 300 output tokens (max_tokens × n), more than the whole limit of 100 per 1 h',
    );
  });

  it('budget: says what the request may cost and what the whole budget is, not that it "is spent"', () => {
    // 200 input at 2.5 and 300 output at 10 per million: 0.0005 + 0.003 = 0.0035.
    const error = refuse([{ budget: { limit: 0.001 } }], small);
    expect(error.message).toContain(
      'budget: this request may cost up to 0.0035 (estimated at the configured prices), more than the whole budget of 0.001 per 1 d',
    );
    expect(error.message).not.toMatch(/spent|retry in/i);
    expect(error.headers['retry-after']).toBeUndefined();
    expect(error.headers['x-should-retry']).toBe('false');
    expect(error.chatCode).toBe('insufficient_quota');
  });

  it('a limit of 0 requests: none can pass, and making the request smaller is not suggested', () => {
    const error = refuse([{ requests: { limit: 0 } }], small);
    expect(error.message).toBe(
      "This request can never fit this key's limits, however long it waits (requests: the limit is 0 per 60 s, so none can pass): ask for a higher limit.",
    );
    expect(error.headers['retry-after']).toBeUndefined();
  });

  it('with another limit that only needs a wait, names only the one waiting cannot fix', () => {
    const error = refuse([{ requests: { limit: 1 } }, { tokens: { limit: 100 } }], small);
    expect(error.message).toContain('tokens: this request needs 500 tokens');
    expect(error.message).not.toContain('requests:');
    expect(error.headers['retry-after']).toBeUndefined();
  });
});

describe('refusal: a request that fits after a wait', () => {
  it('tokens: what it needs, what is left, and the wait', () => {
    const error = refuse([{ tokens: { limit: 600 } }], small, 2);
    expect(error.message).toBe(
      'Rate limit reached for this key (tokens: this request needs 500 tokens (estimated: 200 input + 300 output, max_tokens × n) of 600 per 60 s, 100 left). Retry in 40 s.',
    );
    // 400 tokens missing at 10 per second.
    expect(error.headers['retry-after']).toBe('40');
    expect(error.headers['retry-after-ms']).toBe('40000');
    expect(error.headers['x-should-retry']).toBeUndefined();
  });

  it('budget: what it may cost and what is left of the budget; no quick retries', () => {
    const error = refuse([{ budget: { limit: 0.005 } }], small, 2);
    expect(error.message).toContain('budget: this request may cost up to 0.0035 (estimated at the configured prices) and 0.0015 of the 0.005 per 1 d is left');
    expect(error.headers['retry-after']).toBeDefined();
    expect(error.headers['x-should-retry']).toBe('false');
  });
});

describe('seconds', () => {
  it('prints whole days and hours as such, the rest in seconds', () => {
    expect(seconds(86_400_000)).toBe('1 d');
    expect(seconds(7_200_000)).toBe('2 h');
    expect(seconds(60_000)).toBe('60 s');
    expect(seconds(1_500)).toBe('1.5 s');
    expect(seconds(90_061_000)).toBe('90061 s');
  });
});
