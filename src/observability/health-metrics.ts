/**
 * Targets' health in the metrics: `modelgate_upstream_state` (per upstream
 * and upstream model id: 0 healthy, 1 half-open, 2 cooling), read from the
 * trackers at scrape time so a cooldown that ran out shows as half-open
 * without a request; `modelgate_upstream_cooldowns_total` (cooldowns this
 * instance started, by cause); and their OpenTelemetry equivalents
 * `modelgate.upstream.state` and `modelgate.upstream.cooldowns`.
 *
 * @internal
 */
import { type HealthTracker, STATE_VALUES } from '../routing/health.js';
import type { PrometheusLabels } from './prometheus-shapes.js';
import type { ObservabilitySignals } from './observability.js';

/** The part of a prom-client `Gauge` the state gauge's `collect` uses. */
export interface CollectedGaugeLike {
  reset(): void;
  set(labels: PrometheusLabels, value: number): void;
}

/** The trackers of the gateways sharing a gauge (one registry, several gateways). */
const TRACKERS = new WeakMap<object, Set<HealthTracker>>();

/** prom-client calls this on the state gauge at every scrape. */
export function collectStates(gauge: CollectedGaugeLike): void {
  gauge.reset();
  for (const tracker of TRACKERS.get(gauge) ?? []) {
    for (const target of tracker.snapshot()) gauge.set({ upstream: target.upstream, model: target.model }, STATE_VALUES[target.state]);
  }
}

/** Feeds `tracker`'s states and cooldowns into the signals that are on. */
export function observeHealth(signals: Pick<ObservabilitySignals, 'otel' | 'prometheus'>, tracker: HealthTracker): void {
  const { prometheus, otel } = signals;
  if (prometheus) {
    const trackers = TRACKERS.get(prometheus.upstreamState) ?? new Set();
    trackers.add(tracker);
    TRACKERS.set(prometheus.upstreamState, trackers);
  }
  otel?.upstreamState.addCallback((result) => {
    for (const target of tracker.snapshot()) {
      result.observe(STATE_VALUES[target.state], { 'modelgate.upstream': target.upstream, 'gen_ai.request.model': target.model });
    }
  });
  if (!prometheus && !otel) return;
  tracker.onChange((change) => {
    if (!change.started) return;
    const { cause } = change.started;
    prometheus?.cooldowns.inc({ upstream: change.upstream, model: change.model, cause });
    otel?.cooldowns.add(1, { 'modelgate.upstream': change.upstream, 'gen_ai.request.model': change.model, 'modelgate.cooling.cause': cause });
  });
}
