/**
 * What guards did, on the request's span (one `modelgate.guard` event per
 * record, with its time) and in `modelgate_guard_decisions_total`.
 *
 * @internal
 */
import type { GuardRecord } from '../guards/guard-types.js';
import type { RequestObservation } from './request-observation.js';

/** Records `records` on `observer` (nothing without observability). */
export function observeGuardRecords(observer: RequestObservation | undefined, records: readonly GuardRecord[]): void {
  if (!observer || records.length === 0) return;
  const prometheus = observer.signals.prometheus;
  for (const record of records) {
    prometheus?.guardDecisions.inc({ guard: record.guard, decision: record.decision });
    observer.span?.addEvent('modelgate.guard', {
      'modelgate.guard.name': record.guard,
      'modelgate.guard.stage': record.stage,
      'modelgate.guard.decision': record.decision,
      'modelgate.guard.duration_ms': Math.round(record.durationMs * 1000) / 1000,
    });
  }
}
