/**
 * Targets' health in the metrics: `modelgate_upstream_state` (per upstream
 * and model label: 0 healthy, 1 half-open, 2 cooling; the worst state of the
 * targets that share a label), read from the
 * trackers at scrape time so a cooldown that ran out shows as half-open
 * without a request; `modelgate_upstream_cooldowns_total` (cooldowns this
 * instance started, by cause); and their OpenTelemetry equivalents
 * `modelgate.upstream.state` and `modelgate.upstream.cooldowns`. The model
 * is the upstream model id's label (model-label.ts), never the id itself:
 * through a glob route that id is the caller's, and a series is never removed.
 *
 * @internal
 */
import { type HealthTracker, STATE_VALUES } from '../routing/health.js';
import { type ModelLabel, OTHER_MODEL_LABEL } from './model-label.js';
import type { PrometheusLabels } from './prometheus-shapes.js';
import type { ObservabilitySignals } from './observability.js';

/** The part of a prom-client `Gauge` the state gauge's `collect` uses. */
export interface CollectedGaugeLike {
  reset(): void;
  set(labels: PrometheusLabels, value: number): void;
}

/** A gateway's tracker and the labeler of its configuration. */
interface LabelledTracker {
  tracker: HealthTracker;
  label: ModelLabel;
}

/** The trackers of the gateways sharing a gauge (one registry, several gateways). */
const TRACKERS = new WeakMap<object, Set<LabelledTracker>>();

/** The state of each (upstream, model label): the worst of the targets that share it. */
function labelledStates({ tracker, label }: LabelledTracker): Map<string, { upstream: string; model: string; value: number }> {
  const states = new Map<string, { upstream: string; model: string; value: number }>();
  for (const target of tracker.snapshot()) {
    const model = label(target.model) ?? OTHER_MODEL_LABEL;
    const value = STATE_VALUES[target.state];
    const key = JSON.stringify([target.upstream, model]);
    const current = states.get(key);
    if (current === undefined) states.set(key, { upstream: target.upstream, model, value });
    else current.value = Math.max(current.value, value);
  }
  return states;
}

/** prom-client calls this on the state gauge at every scrape. */
export function collectStates(gauge: CollectedGaugeLike): void {
  gauge.reset();
  for (const labelled of TRACKERS.get(gauge) ?? []) {
    for (const { upstream, model, value } of labelledStates(labelled).values()) gauge.set({ upstream, model }, value);
  }
}

/** Feeds `tracker`'s states and cooldowns into the signals that are on. */
export function observeHealth(signals: Pick<ObservabilitySignals, 'otel' | 'prometheus' | 'modelLabel'>, tracker: HealthTracker): void {
  const { prometheus, otel } = signals;
  const labelled: LabelledTracker = { tracker, label: signals.modelLabel };
  const modelOf = (model: string): string => labelled.label(model) ?? OTHER_MODEL_LABEL;
  if (prometheus) {
    const trackers = TRACKERS.get(prometheus.upstreamState) ?? new Set();
    trackers.add(labelled);
    TRACKERS.set(prometheus.upstreamState, trackers);
  }
  otel?.upstreamState.addCallback((result) => {
    for (const { upstream, model, value } of labelledStates(labelled).values()) {
      result.observe(value, { 'modelgate.upstream': upstream, 'gen_ai.request.model': model });
    }
  });
  if (!prometheus && !otel) return;
  tracker.onChange((change) => {
    if (!change.started) return;
    const { cause } = change.started;
    const model = modelOf(change.model);
    prometheus?.cooldowns.inc({ upstream: change.upstream, model, cause });
    otel?.cooldowns.add(1, { 'modelgate.upstream': change.upstream, 'gen_ai.request.model': model, 'modelgate.cooling.cause': cause });
  });
}
