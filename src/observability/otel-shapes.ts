/**
 * The parts of `@opentelemetry/api`'s providers, tracer, meter, span and
 * histogram the gateway uses, as structural types: the package's declarations
 * name these, never `@opentelemetry/api` itself, so an app type-checks without
 * that optional peer installed (even with `skipLibCheck: false`), and an app
 * that has it passes its real `TracerProvider` / `MeterProvider` unchanged.
 */
import type { AttributeValue, Attributes } from './genai-attributes.js';

/** The part of an OpenTelemetry `Span` the gateway uses (spans come from the app's tracer). */
export interface SpanLike {
  setAttribute(key: string, value: AttributeValue): unknown;
  setAttributes(attributes: Attributes): unknown;
  /** `code` is a `SpanStatusCode` (0 unset, 1 ok, 2 error). */
  setStatus(status: { code: number; message?: string }): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` the gateway uses. */
export interface TracerLike {
  /** `options.kind` is a `SpanKind`; `context` an OpenTelemetry `Context`. */
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes }, context?: unknown): SpanLike;
}

/** An OpenTelemetry `TracerProvider` (the SDK's, or `trace.getTracerProvider()`). */
export interface TracerProviderLike {
  getTracer(name: string): TracerLike;
}

/** The part of an OpenTelemetry `Histogram` the gateway uses. */
export interface HistogramLike {
  record(value: number, attributes?: Attributes): void;
}

/** The part of an OpenTelemetry `Counter` the gateway uses. */
export interface CounterLike {
  add(value: number, attributes?: Attributes): void;
}

/** The part of an OpenTelemetry `ObservableGauge` the gateway uses. */
export interface ObservableGaugeLike {
  /** A callback may return a promise (read from a store): the SDK awaits it at collection. */
  addCallback(callback: (result: { observe(value: number, attributes?: Attributes): void }) => void | Promise<void>): void;
}

/** The part of an OpenTelemetry `Meter` the gateway uses. */
export interface MeterLike {
  createHistogram(name: string, options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } }): HistogramLike;
  createCounter(name: string, options?: { description?: string; unit?: string }): CounterLike;
  createObservableGauge(name: string, options?: { description?: string; unit?: string }): ObservableGaugeLike;
}

/** An OpenTelemetry `MeterProvider` (the SDK's, or `metrics.getMeterProvider()`). */
export interface MeterProviderLike {
  getMeter(name: string): MeterLike;
}
