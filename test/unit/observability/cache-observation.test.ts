/**
 * The response cache in a request's signals, from the usage report the cache
 * pipeline makes: the request span says what the cache did (and, on a hit,
 * carries the stored answer's GenAI figures, with no CLIENT span since no
 * upstream was called); the cache counters count the request by result; the
 * GenAI client metrics and `modelgate_tokens_total` count only what an
 * upstream did; the log line says it too.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { DataPoint } from '@opentelemetry/sdk-metrics';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { createGatewayContext, type GatewayContext } from '../../../src/gateway-context.js';
import type { GatewayRuntime } from '../../../src/gateway-runtime.js';
import { reportUsage, type UsageOutcome } from '../../../src/handlers/report-usage.js';
import { createObservability, type ObserveRequest } from '../../../src/observability/observability.js';
import type { GatewayLogger } from '../../../src/observability/options.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';
import type { TokenUsage } from '../../../src/usage.js';
import { parsePrometheusText, samplesOf, sumOf } from '../../helpers/prometheus-text.js';
import { createTelemetry, histogramPoints, type Telemetry } from '../../helpers/telemetry.js';

const UPSTREAM: Upstream = {
  name: 'vendor-a',
  format: 'chat',
  send: () => Promise.reject(new Error('never called')),
};
const TARGET = { upstream: UPSTREAM, model: 'vendor-a-large' };
const STORED: TokenUsage = { inputTokens: 1000, outputTokens: 250, cacheReadInputTokens: 200 };
const META = { id: 'chatcmpl-stored', model: 'vendor-a-large-2026', finishReasons: ['stop'] };

/** The runtime as `reportUsage` reads it: only the options (no `onUsage` here). */
const RUNTIME = { options: { auth: { keys: ['a-key-of-sixteen-characters'] } } } as Pick<GatewayRuntime, 'options'> as GatewayRuntime;

function recordingLogger(lines: Array<Record<string, unknown>>): GatewayLogger {
  const logger: GatewayLogger = {
    info: (line) => void lines.push(line),
    warn: (line) => void lines.push(line),
    error: (line) => void lines.push(line),
    debug: () => undefined,
    child: () => logger,
  };
  return logger;
}

let telemetry: Telemetry;
let registry: Registry;
let lines: Array<Record<string, unknown>>;
let observe: ObserveRequest;

beforeEach(() => {
  telemetry = createTelemetry();
  registry = new Registry();
  lines = [];
  observe = createObservability({
    openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
    prometheus: { registry },
    logger: recordingLogger(lines),
  })!;
});

afterEach(async () => {
  await telemetry.tracerProvider.shutdown();
  await telemetry.meterProvider.shutdown();
});

function context(): GatewayContext {
  const body = { model: 'large', messages: [{ role: 'user', content: 'Hi' }] };
  const ctx = createGatewayContext({ method: 'POST', url: '/v1/chat/completions', headers: {}, body, signal: new AbortController().signal });
  ctx.body = body;
  ctx.principal = { id: 'p1' };
  ctx.observer = observe(ctx);
  return ctx;
}

/** A call answered from the cache, reported as the pipeline does: its call made no attempt. */
function serveHit(ageSeconds: number): void {
  const ctx = context();
  const observation = ctx.observer!.call(ctx);
  reportUsage(ctx, RUNTIME, { status: 200, stream: false, usage: STORED, aborted: false, target: TARGET, firstByteAt: undefined, meta: META, observation, cache: { result: 'hit', ageSeconds } });
  ctx.observer!.respond(ctx, { type: 'json', status: 200, headers: {}, body: {} });
}

/** A call sent upstream (one attempt that answered 200) with the cache result `result`. */
function serveUpstream(result: 'miss' | 'bypass', usage: TokenUsage): void {
  const ctx = context();
  const observation = ctx.observer!.call(ctx);
  observation.attempt(TARGET, { target: TARGET, operation: 'chat.completions', body: ctx.body, stream: false }, {});
  observation.attempted({ upstream: 'vendor-a', model: TARGET.model, status: 200, retryable: false, durationMs: 5 });
  const outcome: UsageOutcome = { status: 200, stream: false, usage, aborted: false, target: TARGET, firstByteAt: undefined, meta: META, observation, cache: { result } };
  reportUsage(ctx, RUNTIME, outcome);
  ctx.observer!.respond(ctx, { type: 'json', status: 200, headers: {}, body: {} });
}

describe('a cache hit in the request span', () => {
  it('has no CLIENT span; the request span says hit, its age and the stored figures, and is not a failure', () => {
    serveHit(42);
    const spans = telemetry.spans();
    expect(spans.filter((span) => span.kind === SpanKind.CLIENT)).toEqual([]);
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span!.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(span!.attributes).toMatchObject({
      'modelgate.cache.result': 'hit',
      'modelgate.cache.age_seconds': 42,
      // The convention's input count includes cache reads: 1000 + 200.
      'gen_ai.usage.input_tokens': 1200,
      'gen_ai.usage.output_tokens': 250,
      'gen_ai.usage.cache_read.input_tokens': 200,
      'gen_ai.response.id': 'chatcmpl-stored',
      'gen_ai.response.model': 'vendor-a-large-2026',
      'gen_ai.response.finish_reasons': ['stop'],
      'http.response.status_code': 200,
    });
    expect(span!.attributes['error.type']).toBeUndefined();
    expect(span!.attributes['modelgate.upstream_attempts']).toBeUndefined();
  });

  it('a streamed hit: the span ends with the stream, saying hit; a call with no attempt times no chunks', async () => {
    const ctx = context();
    const observation = ctx.observer!.call(ctx);
    expect(observation.onChunk).toBeUndefined();
    // A call that made an attempt times its upstream's events.
    const live = ctx.observer!.call(ctx);
    live.attempt(TARGET, { target: TARGET, operation: 'chat.completions', body: ctx.body, stream: true }, {});
    expect(live.onChunk).toBeTypeOf('function');
    live.failed();
    async function* replay(): AsyncIterable<Uint8Array> {
      yield new TextEncoder().encode('data: {}\n\n');
      // The relay reports the usage as the stream ends, before the body's last read returns.
      reportUsage(ctx, RUNTIME, { status: 200, stream: true, usage: STORED, aborted: false, target: TARGET, firstByteAt: undefined, meta: META, observation, cache: { result: 'hit', ageSeconds: 1 } });
    }
    const response = ctx.observer!.respond(ctx, { type: 'sse', status: 200, headers: {}, body: replay() });
    const requestSpans = () => telemetry.spans().filter((span) => span.kind !== SpanKind.CLIENT);
    expect(requestSpans()).toHaveLength(0);
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) expect(chunk.byteLength).toBeGreaterThan(0);
    const [span] = requestSpans();
    expect(span!.attributes).toMatchObject({ 'modelgate.cache.result': 'hit', 'modelgate.cache.age_seconds': 1, 'gen_ai.usage.output_tokens': 250 });
  });

  it('a miss keeps its CLIENT span and the upstream figures there; the request span says miss, with no age', () => {
    serveUpstream('miss', STORED);
    const spans = telemetry.spans();
    const client = spans.filter((span) => span.kind === SpanKind.CLIENT);
    expect(client).toHaveLength(1);
    expect(client[0]!.attributes['gen_ai.usage.output_tokens']).toBe(250);
    const request = spans.find((span) => span.kind !== SpanKind.CLIENT)!;
    expect(request.attributes['modelgate.cache.result']).toBe('miss');
    expect(request.attributes['modelgate.cache.age_seconds']).toBeUndefined();
    expect(request.attributes['gen_ai.usage.output_tokens']).toBeUndefined();
  });

  it('a request of a gateway without a cache has no cache attribute', () => {
    const ctx = context();
    reportUsage(ctx, RUNTIME, { status: 200, stream: false, usage: STORED, aborted: false, target: TARGET, firstByteAt: undefined });
    ctx.observer!.respond(ctx, { type: 'json', status: 200, headers: {}, body: {} });
    expect(telemetry.spans()[0]!.attributes['modelgate.cache.result']).toBeUndefined();
  });
});

describe('cache results in the metrics and the log line', () => {
  it('counts requests by result; a hit adds no upstream tokens and no GenAI client point', async () => {
    serveHit(3);
    serveHit(5);
    serveUpstream('miss', { inputTokens: 10, outputTokens: 4 });
    serveUpstream('bypass', { inputTokens: 20, outputTokens: 6 });
    const samples = parsePrometheusText(await registry.metrics());
    const counted = (result: string) => sumOf(samples, 'modelgate_cache_requests_total', { endpoint: 'chat.completions', result });
    expect([counted('hit'), counted('miss'), counted('bypass')]).toEqual([2, 1, 1]);
    expect(samplesOf(samples, 'modelgate_cache_requests_total')[0]!.labels.model).toBe('other');
    // Only the two upstream calls' tokens: 10 + 20 input, 4 + 6 output.
    expect(sumOf(samples, 'modelgate_tokens_total', { type: 'input' })).toBe(30);
    expect(sumOf(samples, 'modelgate_tokens_total', { type: 'output' })).toBe(10);
    // Every request still counts as a request; a hit under no upstream.
    expect(sumOf(samples, 'modelgate_requests_total')).toBe(4);
    expect(sumOf(samples, 'modelgate_requests_total', { upstream: 'none' })).toBe(2);

    const metrics = await telemetry.metrics();
    const requests = (metrics.get('modelgate.cache.requests')?.dataPoints ?? []) as Array<DataPoint<number>>;
    const byResult = Object.fromEntries(requests.map((point) => [point.attributes['modelgate.cache.result'], point.value]));
    expect(byResult).toEqual({ hit: 2, miss: 1, bypass: 1 });
    const tokenPoints = histogramPoints(metrics.get('gen_ai.client.token.usage'));
    // Two upstream calls, one input and one output point each.
    expect(tokenPoints.reduce((count, point) => count + point.value.count, 0)).toBe(4);
    expect(histogramPoints(metrics.get('gen_ai.client.operation.duration')).reduce((count, point) => count + point.value.count, 0)).toBe(2);
  });

  it('a result noted when the cache decides counts also when no usage is reported (the upstream call failed)', async () => {
    const ctx = context();
    ctx.observer!.noteCache({ result: 'miss' });
    ctx.observer!.failed(new GatewayError('UPSTREAM_UNAVAILABLE', 'unreachable', { status: 502 }));
    ctx.observer!.respond(ctx, { type: 'json', status: 502, headers: {}, body: {} });
    const samples = parsePrometheusText(await registry.metrics());
    expect(sumOf(samples, 'modelgate_cache_requests_total', { result: 'miss' })).toBe(1);
    expect(telemetry.spans()[0]!.attributes['modelgate.cache.result']).toBe('miss');
  });

  it('counts by principal when the Prometheus option asks for it', async () => {
    const labelled = new Registry();
    observe = createObservability({ prometheus: { registry: labelled, principalLabel: true } })!;
    serveHit(1);
    const samples = parsePrometheusText(await labelled.metrics());
    expect(sumOf(samples, 'modelgate_cache_requests_total', { principal: 'p1', result: 'hit' })).toBe(1);
  });

  it('the log line says what the cache did, with a hit\'s age and its stored figures', () => {
    serveHit(9);
    serveUpstream('miss', { inputTokens: 10, outputTokens: 4 });
    const requestLines = lines.filter((line) => line.requestId !== undefined && line.status !== undefined);
    expect(requestLines).toHaveLength(2);
    expect(requestLines[0]).toMatchObject({ cache: 'hit', cacheAgeSeconds: 9, inputTokens: 1000, outputTokens: 250, cacheReadInputTokens: 200, status: 200 });
    expect(requestLines[0]!.upstream).toBeUndefined();
    expect(requestLines[1]).toMatchObject({ cache: 'miss', upstream: 'vendor-a', inputTokens: 10 });
    expect('cacheAgeSeconds' in requestLines[1]!).toBe(false);
  });
});
