/**
 * Public options of the gateway's observability: OpenTelemetry traces and
 * metrics, Prometheus metrics and structured logs. Everything is off unless
 * its option is set; with none set the request path does no extra work.
 */
import type { MeterProviderLike, TracerProviderLike } from './otel-shapes.js';
import type { PrometheusRegistryLike } from './prometheus-shapes.js';

/**
 * A pino-shaped logger (pino, or anything with these methods). The gateway
 * logs one line per request and one per upstream fault, as an object plus a
 * message; never keys, never prompt or completion text.
 */
export interface GatewayLogger {
  info(object: Record<string, unknown>, message?: string): void;
  warn(object: Record<string, unknown>, message?: string): void;
  error(object: Record<string, unknown>, message?: string): void;
  debug(object: Record<string, unknown>, message?: string): void;
  /** Called once, at gateway creation, with `{ component: 'modelgate' }`. */
  child(bindings: Record<string, unknown>): GatewayLogger;
}

/** Options of the `openTelemetry` gateway option. */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the globally registered provider (the SDK's; a no-op without one). */
  tracerProvider?: TracerProviderLike;
  /** Where metrics go. Default: the globally registered provider (a no-op without one). */
  meterProvider?: MeterProviderLike;
  /**
   * Record the caller's messages (and system prompt) on the upstream spans as
   * `gen_ai.input.messages` / `gen_ai.system_instructions`. Prompts are
   * personal data: default false, and nothing of their text is recorded then.
   */
  captureContent?: boolean;
}

/** Options of the `prometheus` gateway option. */
export interface PrometheusOptions {
  /** The app's prom-client `Registry` (e.g. `new Registry()` or `register`); the gateway registers its metrics on it. */
  registry: PrometheusRegistryLike;
  /** Prefix of every metric name. Default `modelgate_`. */
  prefix?: string;
  /**
   * Add a `principal` label (the principal id, e.g. `key_1a2b3c4d5e6f7a8b9c0d1e2f`, never
   * the key) to the request, token, limit-rejection and cache counters. One series
   * per caller: only for a bounded set of principals. Default false.
   */
  principalLabel?: boolean;
}

/** The observability options of `createGateway` (all optional, all off by default). */
export interface ObservabilityOptions {
  /**
   * OpenTelemetry GenAI traces and metrics through `@opentelemetry/api` (an
   * optional peer dependency: install it). `true` uses the global providers.
   * Default: off.
   */
  openTelemetry?: boolean | OpenTelemetryOptions;
  /** Prometheus metrics on the app's prom-client registry (an optional peer dependency). Default: off. */
  prometheus?: PrometheusOptions;
  /**
   * Structured logs. Default: none, and then, unless `onError` is set, the
   * gateway prints one line on stderr per distinct operational failure (an
   * upstream that cannot be reached, times out, answers 5xx or refuses the
   * gateway's key; a store that is down), at most once a minute each.
   * `false`: silent (no such line, no construction warning on stderr).
   */
  logger?: GatewayLogger | false;
}
