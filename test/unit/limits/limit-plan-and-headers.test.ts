/**
 * The pieces of the limits step on their own: header formats (the vendors'
 * documented examples: `1s`, `6m0s`; RFC 3339 times), rule matching and
 * counter keys, reservations for n > 1, prices, and the in-process gateway
 * with the default memory store (per-model rules, eachModel, principal limits).
 */
import { createGateway, type GatewayResponse, type LimitRule } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { applyLimitHeaders, formatDuration, formatResetTime } from '../../../src/limits/limit-headers.js';
import { compileRules, costMicros, planLimits, priceOf } from '../../../src/limits/plan-limits.js';

describe('header formats', () => {
  it('prints durations like the chat vendor (Go durations)', () => {
    expect(formatDuration(1000)).toBe('1s');
    expect(formatDuration(360_000)).toBe('6m0s');
    expect(formatDuration(17)).toBe('17ms');
    expect(formatDuration(1500)).toBe('1.5s');
    expect(formatDuration(3_723_000)).toBe('1h2m3s');
    expect(formatDuration(0)).toBe('0ms');
  });

  it('prints reset times as RFC 3339 UTC, whole seconds rounded up', () => {
    expect(formatResetTime(Date.UTC(2026, 0, 15, 14, 23, 59, 200), 500)).toBe('2026-01-15T14:24:00Z');
    expect(formatResetTime(Date.UTC(2026, 0, 15, 14, 24, 0, 0), 0)).toBe('2026-01-15T14:24:00Z');
  });

  it("replaces the upstream's rate-limit headers of both conventions", () => {
    const headers = { 'x-ratelimit-limit-requests': '5000', 'anthropic-ratelimit-tokens-limit': '1', 'request-id': 'r' };
    applyLimitHeaders(headers, { 'x-ratelimit-limit-requests': '10' });
    expect(headers).toEqual({ 'x-ratelimit-limit-requests': '10', 'request-id': 'r' });
  });
});

describe('planning', () => {
  const estimate = () => ({ inputTokens: 100, outputTokens: 50, choices: 3, calls: 3 });

  it('applies only matching rules, with one key per rule (per model with eachModel)', () => {
    const rules = compileRules([
      { requests: { limit: 5 } },
      { models: 'gpt-*', eachModel: true, requests: { limit: 1 } },
      { models: ['vendora-*'], concurrent: 2 },
    ]);
    const plan = planLimits({ principalId: 'a b', model: 'gpt-4o', rules: rules.filter((rule) => rule.matches('gpt-4o')), estimate, prices: undefined, leaseMs: 1000 });
    expect(plan.checks.map((check) => check.key)).toEqual(['{a%20b}:*:rq', '{a%20b}:gpt-*:gpt-4o:rq']);
    expect(rules[2]!.matches('gpt-4o')).toBe(false);
  });

  it('keeps keys apart per principal and model when they are remembered, and gives every request its own lease', () => {
    const rules = compileRules([{ requests: { limit: 5 }, concurrent: 2 }, { models: 'gpt-*', eachModel: true, requests: { limit: 1 } }]);
    const plan = (principalId: string, model: string) =>
      planLimits({ principalId, model, rules: rules.filter((rule) => rule.matches(model)), estimate, prices: undefined, leaseMs: 1000 });
    const first = plan('p', 'gpt-4o');
    expect(plan('p', 'gpt-4o').checks.map((check) => check.key)).toEqual(first.checks.map((check) => check.key));
    expect(plan('q', 'gpt-4o').checks.map((check) => check.key)).toEqual(['{q}:*:rq', '{q}:*:cc', '{q}:gpt-*:gpt-4o:rq']);
    expect(plan('p', 'gpt-4o-mini').checks.map((check) => check.key)).toEqual(['{p}:*:rq', '{p}:*:cc', '{p}:gpt-*:gpt-4o-mini:rq']);
    const leases = new Set(Array.from({ length: 100 }, () => plan('p', 'gpt-4o').checks.find((check) => check.kind === 'concurrency')));
    expect(new Set([...leases].map((check) => (check?.kind === 'concurrency' ? check.leaseId : undefined))).size).toBe(100);
  });

  it('copies the rules when compiling: a rule changed in place later changes nothing, for every kind, and never breaks planning', () => {
    const given: LimitRule[] = [{ requests: { limit: 1 }, tokens: { limit: 1000 } }];
    const rules = compileRules(given);
    const plan = () => planLimits({ principalId: 'p', model: 'gpt-4o', rules, estimate, prices: undefined, leaseMs: 1000 });
    const before = plan();
    given[0]!.requests!.limit = 100;
    given[0]!.tokens!.limit = 5;
    given[0]!.concurrent = 5;
    const after = plan();
    expect(after.checks).toEqual(before.checks);
    expect(after.meters).toEqual(before.meters);
    expect(after.checks.map((check) => check.kind)).toEqual(['bucket', 'bucket']);
  });

  it('reserves input per call and output per choice (fan-out: 3 calls, 3 choices)', () => {
    const [rule] = compileRules([{ tokens: { limit: 10_000 } }]);
    const plan = planLimits({ principalId: 'p', model: 'm', rules: [rule!], estimate, prices: undefined, leaseMs: 1000 });
    expect(plan.checks[0]).toMatchObject({ kind: 'bucket', amount: 3 * 100 + 3 * 50, capacity: 10_000, windowMs: 60_000 });
    const one = planLimits({ principalId: 'p', model: 'm', rules: [rule!], estimate: () => ({ ...estimate(), calls: 1 }), prices: undefined, leaseMs: 1000 });
    expect(one.checks[0]).toMatchObject({ amount: 100 + 3 * 50 });
  });

  it('prices by exact id before globs; cache prices default to the input price', () => {
    const prices = { 'vendora-*': { input: 3, output: 15 }, 'vendora-opus-4-6': { input: 15, output: 75, cacheRead: 1.5 } };
    expect(priceOf(prices, 'vendora-opus-4-6')).toEqual(prices['vendora-opus-4-6']);
    expect(priceOf(prices, 'vendora-haiku-4-5')).toEqual(prices['vendora-*']);
    expect(priceOf(prices, 'gpt-4o')).toBeUndefined();
    // $3 per million input tokens: 1000 tokens cost $0.003 = 3000 millionths.
    expect(costMicros({ input: 3, output: 15 }, { input: 1000, cacheRead: 1000, cacheWrite: 0, output: 100 })).toBe(3000 + 3000 + 1500);
  });
});

const KEY = 'sk-unit-limits';

async function ask(gateway: ReturnType<typeof createGateway>, model: string, key = KEY): Promise<GatewayResponse> {
  return gateway.handle({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: { model, messages: [{ role: 'user', content: 'Hello.' }] },
    signal: new AbortController().signal,
  });
}

describe('the gateway with the memory store', () => {
  it('counts per-model rules separately with eachModel, and together without', async () => {
    const gateway = createGateway({
      auth: { keys: [KEY] },
      limits: { rules: [{ models: 'gpt-4o*', eachModel: true, requests: { limit: 1, windowSeconds: 3600 } }, { models: 'vendora-*', requests: { limit: 1, windowSeconds: 3600 } }] },
    });
    expect((await ask(gateway, 'gpt-4o')).status).toBe(200);
    expect((await ask(gateway, 'gpt-4o-mini')).status).toBe(200);
    expect((await ask(gateway, 'gpt-4o')).status).toBe(429);
    expect((await ask(gateway, 'vendora-sonnet-4-6')).status).toBe(200);
    expect((await ask(gateway, 'vendora-haiku-4-5')).status).toBe(429);
    // A model no rule names is not limited and gets no limit headers.
    const free = await ask(gateway, 'o3-mini');
    expect(free.status).toBe(200);
    expect(free.headers['x-ratelimit-limit-requests']).toBeUndefined();
  });

  it("uses a principal's own limits instead of the gateway's", async () => {
    const gateway = createGateway({
      auth: { verify: (key) => (key === KEY ? { id: 'vip', limits: [{ requests: { limit: 2, windowSeconds: 3600 } }] } : key === 'other' ? { id: 'other' } : null) },
      limits: { rules: [{ requests: { limit: 1, windowSeconds: 3600 } }] },
    });
    expect((await ask(gateway, 'gpt-4o')).status).toBe(200);
    expect((await ask(gateway, 'gpt-4o')).status).toBe(200);
    expect((await ask(gateway, 'gpt-4o')).status).toBe(429);
    expect((await ask(gateway, 'gpt-4o', 'other')).status).toBe(200);
    expect((await ask(gateway, 'gpt-4o', 'other')).status).toBe(429);
  });

  it('leaves other endpoints alone', async () => {
    const gateway = createGateway({ auth: { keys: [KEY] }, limits: { rules: [{ requests: { limit: 1, windowSeconds: 3600 } }] } });
    for (let i = 0; i < 3; i++) {
      const response = await gateway.handle({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer ${KEY}` }, signal: new AbortController().signal });
      expect(response.status).toBe(200);
    }
  });
});
