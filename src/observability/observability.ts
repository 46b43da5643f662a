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
import type { CacheBytesSource } from './cache-bytes-gauge.js';
import { observeCacheStore } from './cache-observation.js';

/** Starts the observation of a request. */
export type ObserveRequest = (ctx: GatewayContext) => RequestObservation;

/** What the gateway's signals read besides the requests themselves. */
export interface ObservedSources {
  /**
   * Labels the models the gateway serves by name or by a configured route.
   * Default: none, so every model not yet resolved to a catalog entry counts as `other`.
   */
  modelLabel?: ModelLabel;
  /** The targets' health, for the upstream state gauges and cooldown counters. */
  health?: HealthTracker | undefined;
  /** The response cache's store, for the cache bytes gauges (its `bytesHeld`, read at scrape time). */
  cacheStore?: CacheBytesSource | undefined;
}

/** The request observer of `options`, or `undefined` when no observability option is set. */
export function createObservability(options: ObservabilityOptions, sources: ObservedSources = {}): ObserveRequest | undefined {
  const { modelLabel = () => undefined, health, cacheStore } = sources;
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
  if (cacheStore) observeCacheStore(signals, cacheStore);
  return (ctx) => new RequestObservation(signals, ctx);
}
