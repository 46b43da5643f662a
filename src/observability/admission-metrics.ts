/**
 * Admission control's count and refusals as Prometheus metrics:
 * `modelgate_in_flight_calls` and `modelgate_admission_refusals_total{reason}`.
 *
 * @internal
 */
import type { AdmissionEvents } from '../routing/admission.js';
import type { PrometheusOptions } from './options.js';
import { createPrometheusMetrics } from './prometheus-metrics.js';

/** The admission observers for `prometheus` (none when it is not set). */
export function admissionMetrics(prometheus: PrometheusOptions | undefined): AdmissionEvents {
  if (!prometheus) return {};
  // The metrics are looked up by name on the registry: the same ones the request observation uses.
  const metrics = createPrometheusMetrics(prometheus);
  return {
    onChange: (inFlight) => metrics.inFlight.set({}, inFlight),
    onRefused: (reason) => metrics.admissionRefusals.inc({ reason }),
  };
}
