/**
 * The per-request deadline: one clock across every attempt, retry wait and
 * fallback of a model call, so an upstream that never answers costs the
 * client about one first-byte time-out, not one per attempt.
 *
 * @internal
 */
import { performance } from 'node:perf_hooks';
import { GatewayError } from '../errors.js';

/**
 * Default of `GatewayOptions.requestTimeoutMs`: 300000 ms, the default
 * first-byte time-out of one upstream attempt.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;

/** A running deadline. */
export interface RequestDeadline {
  /** Aborted when the parent signal aborts or the deadline passes (reason: a 504 `GatewayError`). */
  readonly signal: AbortSignal;
  /** `performance.now()` when it fires (`Infinity` when disabled). */
  readonly at: number;
  /** Stops the clock (the answer is complete, or a stream has started); the parent signal still propagates. */
  clear(): void;
}

/**
 * Starts a deadline of `ms` milliseconds under `parent` (the client's
 * signal). `ms` of 0 or less, or not finite, disables the clock and
 * returns the parent signal itself.
 */
export function startDeadline(parent: AbortSignal, ms: number): RequestDeadline {
  if (!(ms > 0) || !Number.isFinite(ms)) return { signal: parent, at: Infinity, clear() {} };
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    controller.abort(
      new GatewayError('UPSTREAM_TIMEOUT', `No complete upstream answer within this gateway's ${ms} ms request time-out (requestTimeoutMs).`),
    );
  }, ms);
  // A deadline must never keep a process alive on its own.
  timer.unref();
  return { signal: controller.signal, at: performance.now() + ms, clear: () => clearTimeout(timer) };
}

/** The gateway's `requestTimeoutMs`, with its default. */
export function requestTimeoutOf(options: { requestTimeoutMs?: number }): number {
  return options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
}
