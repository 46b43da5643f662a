/**
 * One call of a guard function, bounded: a time-out that aborts the
 * guard's signal, a thrown error or rejected promise caught, and the
 * returned value checked to be a decision. Nothing a guard does escapes
 * as an exception.
 */
import { isThenable } from '../maybe-promise.js';
import { GuardDecisionError } from './guard-decision-error.js';
import { DEFAULT_GUARD_TIMEOUT_MS } from './guard-defaults.js';
import type { Guard, GuardContext, GuardDecision, GuardInterface } from './guard-types.js';

/** What a guard knows of the call, and the caller's signal. */
export interface GuardCallInfo {
  interface: GuardInterface;
  model: string;
  principal: string | undefined;
  /** Aborted when the caller goes away; the guard's own signal follows it. */
  signal?: AbortSignal;
}

/** The outcome of one call: a decision, or why there is none. */
export type GuardCallResult<R> =
  | { ok: true; decision: GuardDecision<R>; durationMs: number }
  | { ok: false; failure: 'error' | 'timeout'; error: unknown; durationMs: number };

/** The guard's time-out error, its signal's abort reason. */
export class GuardTimeoutError extends Error {
  constructor(guard: string, timeoutMs: number) {
    super(`guard ${guard} did not decide within ${timeoutMs} ms`);
    this.name = 'GuardTimeoutError';
  }
}

const ACTIONS = new Set(['allow', 'block', 'replace']);

/** `value` as a decision, or a `GuardDecisionError` saying what is wrong with it. Replacements are checked where applied. */
function checkDecision<R>(value: unknown): GuardDecision<R> {
  const action = (value as { action?: unknown } | null | undefined)?.action;
  if (typeof action !== 'string' || !ACTIONS.has(action)) {
    throw new GuardDecisionError('returned no decision: return { action: "allow" | "block" | "replace", ... }');
  }
  if (action === 'block' && typeof (value as { reason?: unknown }).reason !== 'string') {
    throw new GuardDecisionError('a block decision needs a string reason');
  }
  if (action === 'replace' && !Array.isArray((value as { replacements?: unknown }).replacements)) {
    throw new GuardDecisionError('a replace decision needs a replacements array');
  }
  return value as GuardDecision<R>;
}

/**
 * Calls `run` (a guard's `input` or `output`) with a context whose signal
 * aborts after the guard's `timeoutMs` (default 2000) or with the caller's.
 * A synchronous guard is not timed: it cannot be interrupted, and a timer
 * per call would cost every delta of a stream.
 */
export async function callGuard<R>(
  guard: Guard,
  info: GuardCallInfo,
  run: (ctx: GuardContext) => unknown,
): Promise<GuardCallResult<R>> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const controller = new AbortController();
  const parent = info.signal;
  const followParent = () => controller.abort(parent?.reason);
  if (parent?.aborted) followParent();
  else parent?.addEventListener('abort', followParent, { once: true });
  const ctx: GuardContext = { interface: info.interface, model: info.model, principal: info.principal, signal: controller.signal };
  let timer: NodeJS.Timeout | undefined;
  try {
    let value = run(ctx);
    if (isThenable(value)) {
      const timeoutMs = guard.timeoutMs ?? DEFAULT_GUARD_TIMEOUT_MS;
      const pending = Promise.resolve(value);
      // A guard that rejects after its time-out must not become an unhandled rejection.
      pending.catch(() => {});
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new GuardTimeoutError(guard.name, timeoutMs);
          controller.abort(error);
          reject(error);
        }, timeoutMs);
      });
      value = await Promise.race([pending, timedOut]);
    }
    return { ok: true, decision: checkDecision<R>(value), durationMs: elapsed() };
  } catch (error) {
    const failure = error instanceof GuardTimeoutError ? 'timeout' : 'error';
    return { ok: false, failure, error, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    parent?.removeEventListener('abort', followParent);
  }
}
