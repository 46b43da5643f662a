/**
 * The package's declarations describe the optional peers' objects by shape
 * (otel-shapes.ts, prometheus-shapes.ts, the Redis client shapes) so that
 * they never import the peers; these checks, made by `tsc` over the tests,
 * prove the real objects of each peer still fit those shapes.
 */
import type { Histogram, Meter, MeterProvider, Span, Tracer, TracerProvider } from '@opentelemetry/api';
import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider as SdkMeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { Cluster, Redis } from 'ioredis';
import { type ObservabilityOptions, redisLimitStore, type RedisLimitStoreOptions } from 'modelgate';
import * as PromClient from 'prom-client';
import type { createClient, createCluster } from 'redis';
import { describe, expectTypeOf, it } from 'vitest';
import type { HistogramLike, MeterLike, MeterProviderLike, SpanLike, TracerLike, TracerProviderLike } from '../../../src/observability/otel-shapes.js';
import type {
  PrometheusCounterLike,
  PrometheusGaugeLike,
  PrometheusHistogramLike,
  PrometheusRegistryLike,
} from '../../../src/observability/prometheus-shapes.js';

describe('the optional peers fit the shapes the declarations use', () => {
  it('@opentelemetry/api: providers, tracer, meter, span, histogram', () => {
    expectTypeOf<TracerProvider>().toExtend<TracerProviderLike>();
    expectTypeOf<MeterProvider>().toExtend<MeterProviderLike>();
    expectTypeOf<Tracer>().toExtend<TracerLike>();
    expectTypeOf<Meter>().toExtend<MeterLike>();
    expectTypeOf<Span>().toExtend<SpanLike>();
    expectTypeOf<Histogram>().toExtend<HistogramLike>();
    expectTypeOf<BasicTracerProvider>().toExtend<TracerProviderLike>();
    expectTypeOf<SdkMeterProvider>().toExtend<MeterProviderLike>();
    const options: ObservabilityOptions = {
      openTelemetry: { tracerProvider: trace.getTracerProvider(), meterProvider: metrics.getMeterProvider() },
    };
    expectTypeOf(options).toExtend<ObservabilityOptions>();
  });

  it('prom-client: the registry and the metric classes', () => {
    expectTypeOf<PromClient.Registry>().toExtend<PrometheusRegistryLike>();
    expectTypeOf(PromClient.register).toExtend<PrometheusRegistryLike>();
    expectTypeOf<PromClient.Counter<string>>().toExtend<PrometheusCounterLike>();
    expectTypeOf<PromClient.Histogram<string>>().toExtend<PrometheusHistogramLike>();
    expectTypeOf<PromClient.Gauge<string>>().toExtend<PrometheusGaugeLike>();
    const options: ObservabilityOptions = { prometheus: { registry: new PromClient.Registry() } };
    expectTypeOf(options).toExtend<ObservabilityOptions>();
  });

  it('ioredis and node-redis: single-node and cluster clients', () => {
    type Client = RedisLimitStoreOptions['client'];
    expectTypeOf<Redis>().toExtend<Client>();
    expectTypeOf<Cluster>().toExtend<Client>();
    expectTypeOf<ReturnType<typeof createClient>>().toExtend<Client>();
    expectTypeOf<ReturnType<typeof createCluster>>().toExtend<Client>();
    expectTypeOf(redisLimitStore).parameter(0).toExtend<RedisLimitStoreOptions>();
  });
});
