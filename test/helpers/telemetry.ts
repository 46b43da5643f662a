/**
 * In-memory OpenTelemetry SDK pieces for the observability tests: a tracer
 * provider with an in-memory span exporter, a meter provider with a reader
 * collected on demand, and the W3C propagator (registered globally, as an
 * SDK's start does).
 */
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { type DataPoint, type Histogram, MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

class OnDemandReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

export interface Telemetry {
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  /** Every metric collected now, by name. */
  metrics(): Promise<Map<string, MetricData>>;
  reset(): void;
}

export function createTelemetry(): Telemetry {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      const out = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) for (const metric of scope.metrics) out.set(metric.descriptor.name, metric);
      return out;
    },
    reset: () => exporter.reset(),
  };
}

/** The histogram points of a metric. */
export function histogramPoints(metric: MetricData | undefined): Array<DataPoint<Histogram>> {
  return (metric?.dataPoints ?? []) as Array<DataPoint<Histogram>>;
}

/** Waits until `check` passes (spans end when a response body has been written out, just after the client read it). */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
