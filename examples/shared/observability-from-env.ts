/**
 * Observability for the example apps, from environment variables:
 *
 * - `MODELGATE_METRICS=1`: a prom-client registry the gateway registers its
 *   metrics on, served by the app at `GET /metrics`.
 * - `OTEL_EXPORTER_OTLP_ENDPOINT` (or the per-signal `..._TRACES_ENDPOINT` /
 *   `..._METRICS_ENDPOINT`): starts the OpenTelemetry Node SDK, exporting
 *   traces and metrics over OTLP; the SDK reads the standard `OTEL_*`
 *   variables itself (`OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_SERVICE_NAME`,
 *   `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_BSP_SCHEDULE_DELAY`, ...).
 * - `MODELGATE_LOG=1`: one JSON line per request and per upstream fault on stdout.
 *
 * The SDK is a dependency of the examples, not of the library (which only
 * uses `@opentelemetry/api`). It must start before the gateway is created,
 * so the gateway's meter comes from it.
 */
import type { GatewayLogger, GatewayOptions } from 'modelgate';
import type { Registry } from 'prom-client';

type Env = Record<string, string | undefined>;

export interface ExampleObservability {
  /** Gateway options to merge into the app's. */
  options: Pick<GatewayOptions, 'openTelemetry' | 'prometheus' | 'logger'>;
  /** Set with `MODELGATE_METRICS=1`: serve `registry.metrics()` at `GET /metrics`. */
  registry: Registry | undefined;
  /** Startup lines for the banner. */
  notes: string[];
  /** Flushes and stops the SDK (on shutdown). */
  shutdown(): Promise<void>;
}

const OTLP_ENDPOINTS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'];

/** JSON lines on stdout, pino-shaped. */
function jsonLinesLogger(bindings: Record<string, unknown> = {}): GatewayLogger {
  const at = (level: string) => (object: Record<string, unknown>, message?: string) => {
    console.log(JSON.stringify({ level, time: new Date().toISOString(), ...bindings, ...object, msg: message }));
  };
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug'), child: (more) => jsonLinesLogger({ ...bindings, ...more }) };
}

/** Reads the variables above; starts the SDK when an OTLP endpoint is set. */
export async function observabilityFromEnv(env: Env = process.env): Promise<ExampleObservability> {
  const options: ExampleObservability['options'] = {};
  const notes: string[] = [];
  let registry: Registry | undefined;
  let shutdown = async (): Promise<void> => {};

  if (env.MODELGATE_METRICS === '1') {
    const prom = await import('prom-client');
    registry = new prom.Registry();
    prom.collectDefaultMetrics({ register: registry });
    options.prometheus = { registry };
    notes.push('Prometheus metrics: GET /metrics');
  }
  const endpoint = OTLP_ENDPOINTS.map((name) => env[name]).find((value) => value !== undefined && value !== '');
  if (endpoint !== undefined) {
    const { NodeSDK } = await import('@opentelemetry/sdk-node');
    // Traces and metrics exporters, protocol, intervals: all from the standard OTEL_* variables.
    const sdk = new NodeSDK({ serviceName: env.OTEL_SERVICE_NAME ?? 'modelgate-example' });
    sdk.start();
    options.openTelemetry = true;
    // A last export to a collector that is gone would retry for a while: shutdown waits 3 s at most.
    shutdown = () => Promise.race([sdk.shutdown(), new Promise<void>((resolve) => setTimeout(resolve, 3000).unref())]);
    notes.push(`OpenTelemetry: traces and metrics exported over OTLP to ${endpoint}`);
  }
  if (env.MODELGATE_LOG === '1') {
    options.logger = jsonLinesLogger();
    notes.push('Logs: one JSON line per request on stdout');
  }
  return { options, registry, notes, shutdown };
}
