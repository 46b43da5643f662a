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
import type { HealthTracker } from '../routing/health.js';
import { OTHER_MODEL_LABEL } from './model-label.js';
import type { ObservabilitySignals } from './observability-signals.js';
import { addTracker, type LabelledTracker, labelledStates } from './upstream-state-gauge.js';

/** Feeds `tracker`'s states and cooldowns into the signals that are on. */
export function observeHealth(signals: Pick<ObservabilitySignals, 'otel' | 'prometheus' | 'modelLabel'>, tracker: HealthTracker): void {
  const { prometheus, otel } = signals;
  const labelled: LabelledTracker = { tracker, label: signals.modelLabel };
  const modelOf = (model: string): string => labelled.label(model) ?? OTHER_MODEL_LABEL;
  if (prometheus) addTracker(prometheus.upstreamState, labelled);
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
