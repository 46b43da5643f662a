/**
 * What a cache hit costs and how it is reported, over real HTTP: `onUsage`
 * says miss then hit (with the entry's age and the stored figures); a hit
 * counts as a request but charges no tokens; Prometheus counts hits and
 * the bytes held; the request span says `modelgate.cache.result`. The
 * figures expected are the fixed upstream answer's.
 */
import { SpanKind } from '@opentelemetry/api';
import { type GatewayOptions, memoryResponseCache, type UsageRecord } from 'modelgate';
import OpenAI from 'openai';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedAnswerUpstream, USAGE } from '../helpers/fixed-answer-upstream.js';
import { parsePrometheusText, sumOf } from '../helpers/prometheus-text.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';

const KEY = 'sk-accounting-caller-0123456789';
const MODEL = 'gpt-4o';
const ask = (text: string) => ({ model: MODEL, messages: [{ role: 'user' as const, content: text }], max_tokens: 20 });

let started: StartedApp[] = [];
afterEach(async () => {
  await Promise.all(started.map((app) => app.close()));
  started = [];
});

async function setup(mount: Mount, extra: Partial<GatewayOptions> = {}) {
  const upstream = fixedAnswerUpstream('chat');
  const store = memoryResponseCache();
  const app = await startApp(mount, {
    auth: { keys: [{ key: KEY, id: 'accounting' }] },
    routes: [{ match: MODEL, upstream, retries: 0 }],
    cache: { store },
    ...extra,
  });
  started.push(app);
  const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
  return { app, upstream, store, client };
}

/** The status and headers of one chat call, whether it succeeded or not. */
async function call(client: OpenAI, text: string, stream = false): Promise<{ status: number; cache: string | null; remainingTokens: string | null; remainingRequests: string | null }> {
  try {
    const { response, data } = await client.chat.completions.create({ ...ask(text), stream }).withResponse();
    if (stream) for await (const _chunk of data as AsyncIterable<unknown>) { /* read to the end */ }
    return {
      status: response.status,
      cache: response.headers.get('x-modelgate-cache'),
      remainingTokens: response.headers.get('x-ratelimit-remaining-tokens'),
      remainingRequests: response.headers.get('x-ratelimit-remaining-requests'),
    };
  } catch (error) {
    if (error instanceof OpenAI.APIError) {
      return { status: error.status ?? 0, cache: error.headers?.get('x-modelgate-cache') ?? null, remainingTokens: null, remainingRequests: null };
    }
    throw error;
  }
}

describe.each(['node', 'express5'] as const)('cache accounting on %s', (mount) => {
  it('onUsage records a miss, then hits with their age and the stored figures', async () => {
    const records: UsageRecord[] = [];
    const { client } = await setup(mount, { onUsage: (record) => records.push(record) });
    await call(client, 'Weather in Paris and Oslo?');
    await call(client, 'Weather in Paris and Oslo?');
    await call(client, 'Weather in Paris and Oslo?', true);
    await eventually(() => expect(records).toHaveLength(3));
    expect(records.map((record) => [record.cache, record.stream])).toEqual([['miss', false], ['hit', false], ['hit', true]]);
    expect(records[0]!.cacheAgeSeconds).toBeUndefined();
    for (const record of records) {
      expect(record).toMatchObject({ status: 200, inputTokens: USAGE.input, outputTokens: USAGE.output, upstream: 'fixed-chat' });
    }
    for (const hit of records.slice(1)) {
      expect(hit.cacheAgeSeconds).toBeGreaterThanOrEqual(0);
      expect(hit.cacheAgeSeconds).toBeLessThan(5);
    }
  });
});

describe('cache accounting: limits', () => {
  it('a hit charges no tokens: hits worth many times the token limit pass, while misses exhaust it', async () => {
    const limit = 300;
    const { client, upstream } = await setup('node', { limits: { rules: [{ tokens: { limit, windowSeconds: 86_400 } }] } });
    const miss = await call(client, 'Weather in Paris and Oslo?');
    expect(miss).toMatchObject({ status: 200, cache: 'miss' });
    // Twelve hits would be 12 × 64 = 768 tokens had they been charged their stored usage: more than twice the limit.
    const hits = [];
    for (let round = 0; round < 12; round++) hits.push(await call(client, 'Weather in Paris and Oslo?', round % 2 === 1));
    expect(hits.map((hit) => [hit.status, hit.cache])).toEqual(hits.map(() => [200, 'hit']));
    // Each hit's reservation was given back whole: what is left stays where the miss put it.
    expect(new Set(hits.map((hit) => hit.remainingTokens)).size).toBe(1);
    expect(upstream.calls).toBe(1);
    // Distinct requests, each a miss charged its 64 tokens, run the same limit out within a few calls.
    const misses = [];
    for (let round = 0; round < 5; round++) misses.push(await call(client, `Weather in city number ${round}?`));
    expect(misses.map((each) => each.status)).toContain(429);
    const firstRefused = misses.findIndex((each) => each.status === 429);
    // A miss is admitted while its estimate fits, then charged its 64 tokens: no more misses pass than the limit holds, rounded up.
    expect(1 + firstRefused).toBeLessThanOrEqual(Math.ceil(limit / (USAGE.input + USAGE.output)));
  });

  it('a hit counts against a request-rate rule', async () => {
    const { client, upstream } = await setup('express5', { limits: { rules: [{ requests: { limit: 3, windowSeconds: 86_400 } }] } });
    const answers = [];
    for (let round = 0; round < 4; round++) answers.push(await call(client, 'Weather in Paris and Oslo?'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers.slice(0, 3).map((answer) => answer.cache)).toEqual(['miss', 'hit', 'hit']);
    expect(answers.slice(0, 3).map((answer) => answer.remainingRequests)).toEqual(['2', '1', '0']);
    expect(upstream.calls).toBe(1);
  });

  it('a hit spends nothing of a budget', async () => {
    // 64 tokens at 1000 per million tokens each way cost 0.064; three calls cost more than the budget of 0.15.
    const { client, upstream } = await setup('node', {
      limits: { rules: [{ budget: { limit: 0.15, periodSeconds: 86_400 } }], prices: { [MODEL]: { input: 1000, output: 1000 } } },
    });
    const answers = [];
    for (let round = 0; round < 6; round++) answers.push(await call(client, 'Weather in Paris and Oslo?'));
    expect(answers.map((answer) => [answer.status, answer.cache])).toEqual([[200, 'miss'], ...Array.from({ length: 5 }, () => [200, 'hit'])]);
    expect(upstream.calls).toBe(1);
  });
});

describe('cache accounting: metrics and traces', () => {
  it('Prometheus: modelgate_cache_requests_total by result and modelgate_cache_bytes', async () => {
    const registry = new Registry();
    const { client, store } = await setup('express5', { prometheus: { registry } });
    await call(client, 'Weather in Paris and Oslo?');
    await call(client, 'Weather in Paris and Oslo?');
    await call(client, 'Weather in Paris and Oslo?', true);
    const held = await store.bytesHeld!();
    expect(held).toBeGreaterThan(0);
    await eventually(async () => {
      const samples = parsePrometheusText(await registry.metrics());
      expect(sumOf(samples, 'modelgate_cache_requests_total', { result: 'miss', endpoint: 'chat.completions', model: MODEL })).toBe(1);
      expect(sumOf(samples, 'modelgate_cache_requests_total', { result: 'hit', endpoint: 'chat.completions', model: MODEL })).toBe(2);
      expect(sumOf(samples, 'modelgate_cache_bytes')).toBe(held);
    });
  });

  it('OpenTelemetry: the miss has a CLIENT span, the hit none, and each request span carries modelgate.cache.result', async () => {
    const telemetry = createTelemetry();
    const { client } = await setup('node', { openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider } });
    await call(client, 'Weather in Paris and Oslo?');
    await eventually(() => expect(telemetry.spans().filter((span) => span.kind !== SpanKind.CLIENT)).toHaveLength(1));
    expect(telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT)).toHaveLength(1);
    const [missSpan] = telemetry.spans().filter((span) => span.kind !== SpanKind.CLIENT);
    expect(missSpan!.attributes['modelgate.cache.result']).toBe('miss');
    telemetry.reset();
    await call(client, 'Weather in Paris and Oslo?');
    await eventually(() => expect(telemetry.spans()).toHaveLength(1));
    const [hitSpan] = telemetry.spans();
    expect(hitSpan!.kind).not.toBe(SpanKind.CLIENT);
    expect(hitSpan!.attributes).toMatchObject({
      'modelgate.cache.result': 'hit',
      'gen_ai.usage.input_tokens': USAGE.input,
      'gen_ai.usage.output_tokens': USAGE.output,
    });
    expect(hitSpan!.attributes['modelgate.cache.age_seconds']).toBeGreaterThanOrEqual(0);
    const metrics = await telemetry.metrics();
    const counted = metrics.get('modelgate.cache.requests')?.dataPoints ?? [];
    const byResult = Object.fromEntries(counted.map((point) => [point.attributes['modelgate.cache.result'], point.value]));
    expect(byResult).toEqual({ miss: 1, hit: 1 });
  });
});
