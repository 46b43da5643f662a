/**
 * The observability settings of the bench's modelgate servers, from
 * `BENCH_OBS` (the telemetry rows of the features table):
 *
 *   (unset)  no observability option: the default
 *   api      `openTelemetry: true` with no SDK registered (the API's no-ops)
 *   otel     `openTelemetry: true` with the OpenTelemetry Node SDK started as
 *            an app would (W3C propagation, AsyncLocalStorage context, batch
 *            span processor, periodic metric reader every 10 s) and exporters
 *            that drop what they get: the cost measured is the
 *            instrumentation and the SDK's processing, not a network export
 *   prom     `prometheus: { registry }` on a prom-client registry
 *   logs     `logger`: pino writing its JSON lines to /dev/null
 *   full     `otel` and `prom` together
 */
export async function observabilityOptions(mode = process.env.BENCH_OBS) {
  if (mode === undefined || mode === '') return { options: {}, close: async () => {} };
  if (mode === 'api') return { options: { openTelemetry: true }, close: async () => {} };
  if (mode === 'prom') return { options: { prometheus: { registry: await promRegistry() } }, close: async () => {} };
  if (mode === 'logs') {
    const { default: pino } = await import('pino');
    const destination = pino.destination({ dest: '/dev/null', sync: false });
    return { options: { logger: pino({ level: 'info' }, destination) }, close: async () => destination.flushSync() };
  }
  if (mode !== 'otel' && mode !== 'full') throw new Error(`BENCH_OBS: unknown mode ${mode}`);
  const sdk = await startSdk();
  const options = { openTelemetry: true, ...(mode === 'full' ? { prometheus: { registry: await promRegistry() } } : {}) };
  return { options, close: () => sdk.shutdown() };
}

async function promRegistry() {
  const { Registry } = await import('prom-client');
  return new Registry();
}

async function startSdk() {
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { PeriodicExportingMetricReader, AggregationTemporality } = await import('@opentelemetry/sdk-metrics');
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
  return sdk;
}
