/**
 * The observability settings of the bench's modelgate servers, from
 * `BENCH_OBS` (the observability cost rows):
 *
 *   (unset)  no observability option: the default
 *   api      `openTelemetry: true` with no SDK registered (the API's no-ops)
 *   sdk      the SDK below started, but no observability option. Nothing ever
 *            calls `context.with`, so the SDK's AsyncLocalStorage context
 *            manager never switches Node's async hooks on: an SDK that has
 *            done nothing yet
 *   sdk-active  the same, with async context tracking switched on (one
 *            `context.with` at start, as an app's HTTP instrumentation does on
 *            every request and the SDK's own span and metric exports do at
 *            their first run): what the SDK costs an app in which it is doing
 *            anything, so the same process state as `full` once it has exported
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
  if (mode !== 'full' && mode !== 'sdk' && mode !== 'sdk-active') throw new Error(`BENCH_OBS: unknown mode ${mode}`);
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
  if (mode === 'sdk-active') {
    const { context } = await import('@opentelemetry/api');
    context.with(context.active(), () => {});
    return { options: {}, close: () => sdk.shutdown() };
  }
  if (mode === 'sdk') return { options: {}, close: () => sdk.shutdown() };
  const registry = new Registry();
  return { options: { openTelemetry: true, prometheus: { registry } }, close: () => sdk.shutdown() };
}
