/**
 * A model call's usage report when the gateway has a response cache: the
 * `onUsage` record says what the cache did (and a hit's age) and reports the
 * stored answer's token figures, as the client sees them; the limits charge a
 * hit as a request, with no tokens and no spend.
 */
import { describe, expect, it } from 'vitest';
import { createGatewayContext, type GatewayContext } from '../../../src/gateway-context.js';
import type { GatewayRuntime } from '../../../src/gateway-runtime.js';
import { reportUsage, type UsageOutcome } from '../../../src/handlers/report-usage.js';
import type { LimitRule } from '../../../src/limits/limit-options.js';
import type { LimitRequest } from '../../../src/limits/limiter.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';
import type { TokenUsage, UsageRecord } from '../../../src/usage.js';
import { limiterWith, recordingStore } from '../limits/support/recording-limit-store.js';

const UPSTREAM: Upstream = {
  name: 'vendor-a',
  format: 'chat',
  send: () => Promise.reject(new Error('a usage report never calls the upstream')),
};
const TARGET = { upstream: UPSTREAM, model: 'vendor-a-large' };
/** The stored answer's usage, as its `usage` object gave it. */
const STORED: TokenUsage = { inputTokens: 1200, outputTokens: 300, cacheReadInputTokens: 0 };

function context(body: Record<string, unknown>): GatewayContext {
  const ctx = createGatewayContext({ method: 'POST', url: '/v1/chat/completions', headers: {}, body, signal: new AbortController().signal });
  ctx.body = body;
  ctx.principal = { id: 'p1' };
  return ctx;
}

/** The runtime as `reportUsage` reads it: only the `onUsage` option. */
function runtimeWith(onUsage: ((record: UsageRecord) => void) | undefined): GatewayRuntime {
  const auth = { keys: ['a-key-of-sixteen-characters'] };
  const runtime: Pick<GatewayRuntime, 'options'> = { options: onUsage ? { auth, onUsage } : { auth } };
  return runtime as GatewayRuntime;
}

function outcome(overrides: Partial<UsageOutcome> = {}): UsageOutcome {
  return { status: 200, stream: false, usage: STORED, aborted: false, target: TARGET, firstByteAt: undefined, ...overrides };
}

function recordOf(report: Partial<UsageOutcome>): UsageRecord {
  const records: UsageRecord[] = [];
  reportUsage(context({ model: 'large', messages: [] }), runtimeWith((record) => records.push(record)), outcome(report));
  expect(records).toHaveLength(1);
  return records[0]!;
}

describe('the usage record of a cached call', () => {
  it('a hit says so, with its age, and reports the stored figures', () => {
    const record = recordOf({ cache: { result: 'hit', ageSeconds: 42 } });
    expect(record.cache).toBe('hit');
    expect(record.cacheAgeSeconds).toBe(42);
    expect(record).toMatchObject({ inputTokens: 1200, outputTokens: 300, cacheReadInputTokens: 0, upstream: 'vendor-a', upstreamModel: 'vendor-a-large', status: 200 });
  });

  it('a miss and a bypass say so, with no age', () => {
    for (const result of ['miss', 'bypass'] as const) {
      const record = recordOf({ cache: { result, ageSeconds: 7 } });
      expect(record.cache).toBe(result);
      expect('cacheAgeSeconds' in record).toBe(false);
      expect(record.inputTokens).toBe(1200);
    }
  });

  it('a gateway without a cache adds neither field', () => {
    const record = recordOf({});
    expect('cache' in record).toBe(false);
    expect('cacheAgeSeconds' in record).toBe(false);
  });
});

/** Price per million tokens: 1 per input token and 4 per output token, in millionths (the store's budget unit). */
const PRICES = { 'large': { input: 1, output: 4 } };
const REQUEST_LIMIT = 100;
const RULES: LimitRule[] = [{ requests: { limit: REQUEST_LIMIT }, tokens: { limit: 1_000_000 }, budget: { limit: 1000 } }];

function limitRequest(ctx: GatewayContext): LimitRequest {
  return {
    endpoint: 'chat.completions',
    principal: ctx.principal,
    body: ctx.body,
    route: { targets: [TARGET], onClientAbort: 'abort' },
    format: 'chat',
    client: ctx.request,
  };
}

/** What one call left in the store, per kind of counter: amount reserved plus the corrections settled. */
async function netCharges(report: Partial<UsageOutcome>, body: Record<string, unknown> = {}): Promise<{ requests: number; tokens: number; budget: number }> {
  const { store, reserved, settled } = recordingStore();
  const limiter = limiterWith({ rules: RULES, store, prices: PRICES, expectedOutputTokens: 1000 });
  const ctx = context({ model: 'large', messages: [{ role: 'user', content: 'Hi' }], ...body });
  await limiter.run(limitRequest(ctx), async (admission) => {
    ctx.limitUsage = admission?.recordUsage;
    reportUsage(ctx, runtimeWith(undefined), outcome({ stream: body.stream === true, ...report }));
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  const net = { requests: 0, tokens: 0, budget: 0 };
  // Told apart by their limits (the rule's request and token buckets have different capacities), not by key names.
  const kindOf = (entry: { kind: string; capacity?: number }) =>
    entry.kind === 'budget' ? 'budget' : entry.kind !== 'bucket' ? undefined : entry.capacity === REQUEST_LIMIT ? 'requests' : 'tokens';
  for (const check of reserved.flat()) {
    const kind = kindOf(check);
    if (kind && 'amount' in check) net[kind] += check.amount;
  }
  for (const adjustment of settled.flat()) {
    const kind = kindOf(adjustment);
    if (kind && 'delta' in adjustment) net[kind] += adjustment.delta;
  }
  return net;
}

describe('the limits of a cached call', () => {
  it('a hit is charged as a request, with no tokens and no spend', async () => {
    expect(await netCharges({ cache: { result: 'hit', ageSeconds: 3 } })).toEqual({ requests: 1, tokens: 0, budget: 0 });
  });

  it('a miss is charged the tokens and spend the upstream reported', async () => {
    // 1200 input and 300 output tokens: 1200 × 1 + 300 × 4 millionths.
    expect(await netCharges({ cache: { result: 'miss' } })).toEqual({ requests: 1, tokens: 1500, budget: 2400 });
  });

  it('a streamed hit whose client left is charged no tokens (a live stream keeps its reserved output)', async () => {
    expect(await netCharges({ cache: { result: 'hit' }, aborted: true }, { stream: true })).toEqual({ requests: 1, tokens: 0, budget: 0 });
    const live = await netCharges({ cache: { result: 'miss' }, aborted: true, usage: { inputTokens: 1200, outputTokens: 1 } }, { stream: true });
    // The upstream went on generating: the reserved 1000 output tokens stay charged.
    expect(live.tokens).toBe(2200);
  });
});
