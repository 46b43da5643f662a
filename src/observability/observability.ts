/**
 * Creates the observability signals the options ask for, once per gateway:
 * `undefined` when none is set, so requests then do no observability work.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import type { ModelLabel } from './model-label.js';
import type { ObservabilitySignals } from './observability-signals.js';
import type { ObservabilityOptions } from './options.js';
import { createOtelSignals } from './otel-signals.js';
import { createPrometheusMetrics } from './prometheus-metrics.js';
import { RequestObservation } from './request-observation.js';
import type { HealthTracker } from '../routing/health.js';
import { observeHealth } from './health-metrics.js';

/** Starts the observation of a request. */
export type ObserveRequest = (ctx: GatewayContext) => RequestObservation;

/**
 * The request observer of `options`, or `undefined` when no observability
 * option is set. `modelLabel` labels the models the gateway serves by name
 * or by a configured route (default: none, so every model not yet resolved
 * to a catalog entry counts as `other`).
 */
export function createObservability(options: ObservabilityOptions, modelLabel: ModelLabel = () => undefined, health?: HealthTracker): ObserveRequest | undefined {
  const { openTelemetry, prometheus, logger } = options;
  if (!openTelemetry && !prometheus && !logger) return undefined;
  const signals: ObservabilitySignals = {
    otel: openTelemetry ? createOtelSignals(openTelemetry) : undefined,
    prometheus: prometheus ? createPrometheusMetrics(prometheus) : undefined,
    logger: logger ? logger.child({ component: 'modelgate' }) : undefined,
    modelLabel,
  };
  // OpenTelemetry alone with no SDK registered records nothing: no per-request work at all.
  if (!signals.otel && !signals.prometheus && !signals.logger) return undefined;
  if (health) observeHealth(signals, health);
  return (ctx) => new RequestObservation(signals, ctx);
}
