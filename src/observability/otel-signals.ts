/**
 * The OpenTelemetry side: a tracer (request spans, CLIENT spans per upstream
 * attempt, `traceparent` injection) and the GenAI client metrics with the
 * bucket boundaries the semantic conventions give.
 *
 * @internal
 */
import type * as Api from '@opentelemetry/api';
import type { GatewayRequest } from '../types.js';
import type { Attributes } from './genai-attributes.js';
import { loadOptional } from '../optional-peer.js';
import type { OpenTelemetryOptions } from './options.js';
import type { CounterLike, HistogramLike, ObservableGaugeLike, SpanLike } from './otel-shapes.js';

/** Instrumentation scope name of the tracer and meter. */
export const INSTRUMENTATION_SCOPE = 'modelgate';

/** `gen_ai.client.token.usage` buckets, in tokens (semantic conventions). */
export const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
/** Duration, time-to-first-chunk and time-per-output-chunk buckets, in seconds (semantic conventions). */
export const SECONDS_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

export type Span = SpanLike;

export interface OtelSignals {
  readonly captureContent: boolean;
  /** Starts the span of a gateway request: a child of the active span, else of the caller's `traceparent`. */
  startRequest(request: GatewayRequest, name: string, attributes: Attributes): Span;
  /** Starts the CLIENT span of one upstream attempt under `parent`. */
  startAttempt(parent: Span, name: string, attributes: Attributes): Span;
  /** `headers` plus the trace context of `span` (`traceparent`, `tracestate`), for the upstream. */
  inject(span: Span, headers: Record<string, string>): Record<string, string>;
  /** Ends `span`, marking it failed when `errorType` is set. */
  end(span: Span, attributes: Attributes, errorType: string | undefined): void;
  readonly duration: HistogramLike;
  readonly tokenUsage: HistogramLike;
  readonly timeToFirstChunk: HistogramLike;
  readonly timePerOutputChunk: HistogramLike;
  /** `modelgate.upstream.state`: 0 healthy, 1 half-open, 2 cooling, per upstream target. */
  readonly upstreamState: ObservableGaugeLike;
  /** `modelgate.upstream.cooldowns`: cooldowns this instance started. */
  readonly cooldowns: CounterLike;
  /** `modelgate.cache.requests`: model calls by response cache result. */
  readonly cacheRequests: CounterLike;
  /** `modelgate.cache.bytes`: bytes the response cache holds (fed by `observeCacheStore`). */
  readonly cacheBytes: ObservableGaugeLike;
}

/** A span of the app's tracer (every span the gateway holds came from it) as the API's functions take it. */
const apiSpan = (span: Span): Api.Span => span as Api.Span;

const HEADER_GETTER: Api.TextMapGetter<GatewayRequest['headers']> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/**
 * True when neither a tracer nor a meter provider is registered globally
 * (the API's no-op providers): nothing would be recorded. Judged by class
 * name, the API exporting neither no-op class; a renamed class only means
 * the signals are kept (some work, no harm).
 */
function globalProvidersAreNoOps(api: typeof Api): boolean {
  const traces = api.trace.getTracerProvider();
  const delegate = traces instanceof api.ProxyTracerProvider ? traces.getDelegate() : traces;
  return delegate.constructor.name === 'NoopTracerProvider' && api.metrics.getMeterProvider().constructor.name === 'NoopMeterProvider';
}

/**
 * Creates the OpenTelemetry signals; loads `@opentelemetry/api` (throws a
 * TypeError naming it when missing). `undefined` when the global providers
 * are used and no SDK is registered yet: requests then cost nothing extra
 * (register the SDK before creating the gateway).
 */
export function createOtelSignals(option: true | OpenTelemetryOptions): OtelSignals | undefined {
  const api = loadOptional<typeof Api>('@opentelemetry/api', 'openTelemetry');
  const options = option === true ? {} : option;
  if (!options.tracerProvider && !options.meterProvider && globalProvidersAreNoOps(api)) return undefined;
  const tracer = (options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
  const meter = (options.meterProvider ?? api.metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE);
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: SECONDS_BUCKETS } });

  return {
    captureContent: options.captureContent === true,
    startRequest(request, name, attributes) {
      const active = api.context.active();
      const inside = api.trace.getSpan(active) !== undefined;
      // Inside an instrumented HTTP server the gateway's span is an inner one; otherwise it is the server span.
      const parent = inside ? active : api.propagation.extract(api.ROOT_CONTEXT, request.headers, HEADER_GETTER);
      return tracer.startSpan(name, { kind: inside ? api.SpanKind.INTERNAL : api.SpanKind.SERVER, attributes }, parent);
    },
    startAttempt(parent, name, attributes) {
      return tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, api.trace.setSpan(api.ROOT_CONTEXT, apiSpan(parent)));
    },
    inject(span, headers) {
      const out = { ...headers };
      api.propagation.inject(api.trace.setSpan(api.ROOT_CONTEXT, apiSpan(span)), out);
      return out;
    },
    end(span, attributes, errorType) {
      span.setAttributes(attributes);
      if (errorType !== undefined) {
        span.setAttribute('error.type', errorType);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
    },
    duration: seconds('gen_ai.client.operation.duration', 'GenAI operation duration.'),
    tokenUsage: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    timeToFirstChunk: seconds('gen_ai.client.operation.time_to_first_chunk', 'Time to receive the first chunk of a streamed response.'),
    timePerOutputChunk: seconds('gen_ai.client.operation.time_per_output_chunk', 'Time between consecutive chunks of a streamed response.'),
    upstreamState: meter.createObservableGauge('modelgate.upstream.state', {
      description: 'Health of each upstream target: 0 healthy, 1 half-open, 2 cooling.',
    }),
    cooldowns: meter.createCounter('modelgate.upstream.cooldowns', { description: 'Cooldowns this instance started on an upstream target.', unit: '{cooldown}' }),
    cacheRequests: meter.createCounter('modelgate.cache.requests', {
      description: 'Model calls by response cache result: hit (answered from the cache, no upstream call), miss (sent upstream), bypass (neither looked up nor stored).',
      unit: '{request}',
    }),
    cacheBytes: meter.createObservableGauge('modelgate.cache.bytes', { description: 'Bytes of answers the response cache holds.', unit: 'By' }),
  };
}
