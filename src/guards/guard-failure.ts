/**
 * What a failed guard call leads to, under the guard's `onError`, and the
 * record it leaves. Shared by the input, output and stream runners.
 */
import type { GuardCallResult } from './call-guard.js';
import { DEFAULT_GUARD_ON_ERROR } from './guard-defaults.js';
import type { Guard, GuardRecord, GuardStop } from './guard-types.js';

/** Why a guard call gave no usable decision. */
export interface GuardFailure {
  failure: 'error' | 'timeout';
  error: unknown;
  durationMs: number;
}

/** A failure's record, and the stop it causes (undefined when the guard fails open). */
export function failureOutcome(
  guard: Guard,
  stage: GuardRecord['stage'],
  failure: GuardFailure,
): { record: GuardRecord; stop: GuardStop | undefined } {
  const record: GuardRecord = { guard: guard.name, stage, decision: failure.failure, durationMs: failure.durationMs, error: failure.error };
  const closed = (guard.onError ?? DEFAULT_GUARD_ON_ERROR) === 'closed';
  return { record, stop: closed ? { kind: 'failed', guard: guard.name, error: failure.error } : undefined };
}

/** A failure for an invalid decision found when applying it, timed like the call. */
export function invalidDecision(
  result: Extract<GuardCallResult<unknown>, { ok: true }>,
  error: unknown,
): GuardFailure {
  return { failure: 'error', error, durationMs: result.durationMs };
}
