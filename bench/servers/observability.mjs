/**
 * The observability settings of the bench's modelgate servers, from
 * `BENCH_OBS` (the cost rows of issue 15):
 *
 *   (unset)  no observability option: the default
 *   api      `openTelemetry: true` with no SDK registered (the API's no-ops)
 *   sdk      the SDK below started, but no observability option: what the
 *            SDK alone costs the process (async context tracking on every promise)
 *   full     the OpenTelemetry Node SDK started as an app would (W3C
 *            propagation, AsyncLocalStorage context, batch span processor,
 *            periodic metric reader every 10 s) with exporters that drop
 *            what they get (the cost measured is the instrumentation and the
 *            SDK's processing, not a network export), plus a prom-client
 *            registry with the gateway's metrics on it
 */
export async function observabilityOptions(mode = process.env.BENCH_OBS) {
  if (mode === undefined || mode === '') return { options: {}, close: async () => {} };
  if (mode === 'api') return { options: { openTelemetry: true }, close: async () => {} };
  if (mode !== 'full' && mode !== 'sdk') throw new Error(`BENCH_OBS: unknown mode ${mode}`);
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { PeriodicExportingMetricReader, AggregationTemporality } = await import('@opentelemetry/sdk-metrics');
  const { Registry } = await import('prom-client');
  const dropSpans = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };
  const dropMetrics = {
    export: (_metrics, done) => done({ code: 0 }),
    shutdown: async () => {},
    forceFlush: async () => {},
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  };
  const sdk = new NodeSDK({
    serviceName: 'modelgate-bench',
    traceExporter: dropSpans,
    metricReader: new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 10_000 }),
    instrumentations: [],
  });
  sdk.start();
  if (mode === 'sdk') return { options: {}, close: () => sdk.shutdown() };
  const registry = new Registry();
  return { options: { openTelemetry: true, prometheus: { registry } }, close: () => sdk.shutdown() };
}
