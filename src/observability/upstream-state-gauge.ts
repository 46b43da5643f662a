/**
 * The upstream state of each (upstream, model label) as the state gauges
 * read it: the trackers that feed a gauge, and the worst state of the
 * targets that share a label. Apart from health-metrics.ts so that the
 * Prometheus metrics (whose state gauge collects from here) and the code
 * that feeds the gauges import it without importing each other.
 *
 * @internal
 */
import { type HealthTracker, STATE_VALUES } from '../routing/health.js';
import { type ModelLabel, OTHER_MODEL_LABEL } from './model-label.js';
import type { PrometheusLabels } from './prometheus-shapes.js';

/** The part of a prom-client `Gauge` the state gauge's `collect` uses. */
export interface CollectedGaugeLike {
  reset(): void;
  set(labels: PrometheusLabels, value: number): void;
}

/** A gateway's tracker and the labeler of its configuration. */
export interface LabelledTracker {
  tracker: HealthTracker;
  label: ModelLabel;
}

/** The trackers of the gateways sharing a gauge (one registry, several gateways). */
const TRACKERS = new WeakMap<object, Set<LabelledTracker>>();

/** The state of each (upstream, model label): the worst of the targets that share it. */
export function labelledStates({ tracker, label }: LabelledTracker): Map<string, { upstream: string; model: string; value: number }> {
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

/** `labelled` feeds `gauge` from now on (read at each scrape by {@link collectStates}). */
export function addTracker(gauge: CollectedGaugeLike, labelled: LabelledTracker): void {
  const trackers = TRACKERS.get(gauge) ?? new Set();
  trackers.add(labelled);
  TRACKERS.set(gauge, trackers);
}

/** prom-client calls this on the state gauge at every scrape. */
export function collectStates(gauge: CollectedGaugeLike): void {
  gauge.reset();
  for (const labelled of TRACKERS.get(gauge) ?? []) {
    for (const { upstream, model, value } of labelledStates(labelled).values()) gauge.set({ upstream, model }, value);
  }
}
