/**
 * The bytes the response cache holds, on `modelgate_cache_bytes` and
 * `modelgate.cache.bytes`: read from the store at each scrape, once per
 * distinct store, and never stalling or failing a scrape when the store does
 * not answer (it counts with its last figure).
 */
import type { DataPoint } from '@opentelemetry/sdk-metrics';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CACHE_BYTES_READ_MS, type CacheBytesSource } from '../../../src/observability/cache-bytes-gauge.js';
import { createObservability } from '../../../src/observability/observability.js';
import { parsePrometheusText, samplesOf } from '../../helpers/prometheus-text.js';
import { createTelemetry } from '../../helpers/telemetry.js';

/** A store whose figure the test sets; `fail` makes it throw, `hang` never answer. */
function storeHolding(bytes: number) {
  const state = { bytes, fail: false, hang: false, reads: 0 };
  const store: CacheBytesSource = {
    bytesHeld() {
      state.reads++;
      if (state.hang) return new Promise<number>(() => undefined);
      if (state.fail) return Promise.reject(new Error('connection refused'));
      return Promise.resolve(state.bytes);
    },
  };
  return { store, state };
}

async function gaugeValue(registry: Registry): Promise<number | undefined> {
  const samples = samplesOf(parsePrometheusText(await registry.metrics()), 'modelgate_cache_bytes');
  expect(samples.length).toBeLessThanOrEqual(1);
  return samples[0]?.value;
}

describe('modelgate_cache_bytes', () => {
  it('reads the store at each scrape', async () => {
    const registry = new Registry();
    const { store, state } = storeHolding(2048);
    createObservability({ prometheus: { registry } }, { cacheStore: store });
    expect(await gaugeValue(registry)).toBe(2048);
    state.bytes = 4096;
    expect(await gaugeValue(registry)).toBe(4096);
    expect(state.reads).toBe(2);
  });

  it('is absent for a gateway without a cache, and for a store that cannot tell its size', async () => {
    const registry = new Registry();
    createObservability({ prometheus: { registry } });
    createObservability({ prometheus: { registry } }, { cacheStore: {} });
    expect(await gaugeValue(registry)).toBeUndefined();
  });

  it('counts a store shared by two gateways once, and sums distinct stores', async () => {
    const registry = new Registry();
    const shared = storeHolding(1000);
    const other = storeHolding(24);
    createObservability({ prometheus: { registry } }, { cacheStore: shared.store });
    createObservability({ prometheus: { registry } }, { cacheStore: shared.store });
    createObservability({ prometheus: { registry } }, { cacheStore: other.store });
    expect(await gaugeValue(registry)).toBe(1024);
  });

  it('a store that fails keeps its last figure; the scrape succeeds', async () => {
    const registry = new Registry();
    const { store, state } = storeHolding(512);
    createObservability({ prometheus: { registry } }, { cacheStore: store });
    expect(await gaugeValue(registry)).toBe(512);
    state.fail = true;
    expect(await gaugeValue(registry)).toBe(512);
  });

  it('a store that does not answer holds the scrape back no longer than the read bound', async () => {
    const registry = new Registry();
    const { store, state } = storeHolding(64);
    createObservability({ prometheus: { registry } }, { cacheStore: store });
    expect(await gaugeValue(registry)).toBe(64);
    state.hang = true;
    const started = performance.now();
    expect(await gaugeValue(registry)).toBe(64);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(CACHE_BYTES_READ_MS - 50);
    expect(elapsed).toBeLessThan(CACHE_BYTES_READ_MS + 1000);
  });
});

describe('modelgate.cache.bytes', () => {
  it('observes the store\'s bytes at collection', async () => {
    const telemetry = createTelemetry();
    const { store, state } = storeHolding(300);
    createObservability({ openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider } }, { cacheStore: store });
    const read = async () => ((await telemetry.metrics()).get('modelgate.cache.bytes')?.dataPoints as Array<DataPoint<number>> | undefined)?.map((point) => point.value);
    expect(await read()).toEqual([300]);
    state.bytes = 700;
    expect(await read()).toEqual([700]);
    await telemetry.meterProvider.shutdown();
  });
});
