/**
 * The signals a gateway's observability writes to, made once per gateway
 * by `createObservability` and read by every request's observation.
 *
 * @internal
 */
import type { ModelLabel } from './model-label.js';
import type { GatewayLogger } from './options.js';
import type { OtelSignals } from './otel-signals.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

export interface ObservabilitySignals {
  readonly otel: OtelSignals | undefined;
  readonly prometheus: PrometheusMetrics | undefined;
  readonly logger: GatewayLogger | undefined;
  /** The `model` label of a requested model id (see model-label.ts); undefined counts as `other`. */
  readonly modelLabel: ModelLabel;
}
