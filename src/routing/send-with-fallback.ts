/**
 * Sends a call to a route's targets in order, retrying and falling back on
 * failures that happened before any byte reached the client: connection
 * errors and time-outs, 429, and 5xx (529 included); an upstream without
 * the endpoint (a 404 for the path) is not retried but falls back at once. It only ever looks at
 * response heads; once a response is returned, the caller owns it. Given a
 * health gate (`src/routing/target-gate.ts`), it skips cooling targets
 * without waiting and tells the gate how each attempt went.
 */
import { thrownErrorRedactor } from '../redact/gateway-redactor.js';
import { redactError } from '../redact/redact-error.js';
import { performance } from 'node:perf_hooks';
import { GatewayError, isGatewayError, toGatewayError } from '../errors.js';
import { discardBody } from '../upstreams/read-body.js';
import { retryAfterMs } from '../upstreams/retry-after.js';
import type { AbortSource } from '../signals/abort-source.js';
import { clientLeftError } from '../signals/client-left.js';
import type { RouteTarget } from './route-types.js';
import { errorHealth, movesOnAtOnce, responseHealth } from './attempt-health.js';
import { type AttemptHealth, type Cooling, type HealthTicket, isRetryHint } from './health.js';
import type { TargetGate } from './target-gate.js';
import type { UpstreamCall, UpstreamResponse } from '../upstreams/upstream.js';

const NEUTRAL: AttemptHealth = { kind: 'neutral' };

/** Options of {@link sendWithFallback}. */
export interface SendWithFallbackOptions {
  /** Retries of the same target before moving to the next one. Default 1. */
  retries?: number;
  /** First retry delay in ms, doubled per retry (minus up to 25 % jitter). Default 500. */
  backoffMs?: number;
  /** Cap of the exponential delay in ms. Default 8000. */
  maxBackoffMs?: number;
  /**
   * Longest `retry-after` / `retry-after-ms` honoured, in ms. A target asking
   * for more is not retried (the next target is tried at once). Default 10000.
   */
  maxRetryAfterMs?: number;
  /** Stops everything (retries, waits) when aborted. */
  signal: AbortSource;
  /**
   * The client's abort, when `signal` does not follow it (a stream drained
   * for accounting): no attempt starts once it has aborted, though an
   * attempt under way goes on. Default: `signal` alone.
   */
  client?: AbortSource;
  /**
   * `performance.now()` of the request's deadline (its `signal` aborts
   * then). A retry whose wait would end past it is not made: the last
   * answer (or error) is returned at once instead of a time-out later.
   * Default: none.
   */
  deadlineAt?: number;
  /** Called after every attempt (logs, metrics). */
  onAttempt?: (attempt: AttemptRecord) => void;
  /**
   * Per-target health: cooling targets are skipped without waiting, and
   * every attempt's outcome is recorded. When the gate refuses the call
   * before the first attempt (every target cooling, and the route rejects
   * or every upstream asked to wait), its answer is thrown at once.
   * Default: none.
   */
  health?: TargetGate;
}

/** What one attempt did. */
export interface AttemptRecord {
  upstream: string;
  model: string;
  /** Response status, when a response came. */
  status?: number;
  /** The failure, when no response came. */
  error?: GatewayError;
  /** Whether this outcome allowed another attempt. */
  retryable: boolean;
  durationMs: number;
}

/** Where the call ended up. */
export interface FallbackResult {
  response: UpstreamResponse;
  target: RouteTarget;
  attempts: AttemptRecord[];
}

/** Context of one attempt, for `makeCall`. */
export interface AttemptInfo {
  /** Index of the target in `targets`. */
  targetIndex: number;
  /** 0 for the first try of this target, 1 for its first retry... */
  retry: number;
}

/** Statuses worth another attempt: 429 and every 5xx (529 included). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Errors worth another attempt: no response at all (`UPSTREAM_UNAVAILABLE`,
 * `UPSTREAM_TIMEOUT`), or no such endpoint (`UPSTREAM_ENDPOINT_MISSING`:
 * on another target only).
 */
export function isRetryableError(error: GatewayError): boolean {
  return error.code === 'UPSTREAM_UNAVAILABLE' || error.code === 'UPSTREAM_TIMEOUT' || movesOnAtOnce(error);
}

/** The error of an aborted `signal`: its reason when the gateway set one (a deadline's 504), else the client left (499). */
function cancelled(signal: AbortSource): GatewayError {
  return isGatewayError(signal.reason)
    ? signal.reason
    : new GatewayError('CLIENT_CLOSED_REQUEST', 'The client closed the request before an upstream answered.', { cause: signal.reason });
}

function sleep(ms: number, signal: AbortSource): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(cancelled(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

type Outcome = { response: UpstreamResponse; target: RouteTarget } | { error: GatewayError };

/**
 * Tries `targets` in order. Each target gets `1 + retries` attempts; retries
 * wait `backoffMs · 2^n` (or the upstream's `retry-after`, when given and
 * not above `maxRetryAfterMs`), fallbacks are tried without waiting. A
 * non-retryable answer (2xx, 4xx other than 429) is returned at once. Failed
 * responses are discarded before the next attempt so their sockets are
 * released. After the last attempt its response is returned, or its error
 * thrown; so are they when the next attempt's wait would pass `deadlineAt`.
 *
 * @throws GatewayError the last attempt's error, a non-retryable one, or the
 *   cancellation when `signal` aborts.
 */
export async function sendWithFallback(
  targets: readonly RouteTarget[],
  makeCall: (target: RouteTarget, info: AttemptInfo) => UpstreamCall,
  options: SendWithFallbackOptions,
): Promise<FallbackResult> {
  const { signal } = options;
  const retries = Math.max(0, options.retries ?? 1);
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 8_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
  const { deadlineAt } = options;
  const attempts: AttemptRecord[] = [];
  if (targets.length === 0) throw new TypeError('sendWithFallback needs at least one target');
  const gate = options.health;
  const refusal = gate?.start(targets);
  if (refusal) throw refusal;
  let last: Outcome | undefined;
  /** True once `last` is a response whose body was discarded (another attempt was due). */
  let lastDiscarded = false;
  const skipped: Cooling[] = [];

  const record = (target: RouteTarget, started: number, result: Omit<AttemptRecord, 'upstream' | 'model' | 'durationMs'>): void => {
    const attempt = { upstream: target.upstream.name, model: target.model, ...result, durationMs: performance.now() - started };
    attempts.push(attempt);
    options.onAttempt?.(attempt);
  };

  tries: for (const [targetIndex, target] of targets.entries()) {
    for (let retry = 0; retry <= retries; retry++) {
      if (signal.aborted) throw cancelled(signal);
      if (options.client?.aborted) throw clientLeftError();
      let ticket: HealthTicket | undefined;
      if (gate) {
        const admitted = gate.admit(target);
        // A cooling target is skipped, never waited for: on to the next one.
        if ('until' in admitted) {
          skipped.push(admitted);
          break;
        }
        ticket = admitted;
      }
      const started = performance.now();
      let wait: number | undefined;
      try {
        const call = makeCall(target, { targetIndex, retry });
        const response = await target.upstream.send(call);
        const retryable = isRetryableStatus(response.status);
        // Only a retryable answer's headers are read here (a custom upstream's 2xx may come without any).
        const hint = retryable ? retryAfterMs(response.headers) : undefined;
        if (ticket) {
          const health = responseHealth(response.status, hint, response.headers?.['x-should-retry'] !== 'false');
          // A stream's head is not yet its success: the relay records how the stream ends (a probe's head still ends its cooldown).
          gate!.settle(ticket, target, call.stream && health.kind === 'success' && !ticket.probe ? NEUTRAL : health);
        }
        record(target, started, { status: response.status, retryable });
        if (!retryable) return { response, target, attempts };
        last = { response, target };
        lastDiscarded = false;
        // An upstream asking for a long pause (or saying not to retry) is skipped rather than waited for.
        if ((hint !== undefined && hint > maxRetryAfterMs) || response.headers['x-should-retry'] === 'false') retry = retries;
        else wait = hint;
      } catch (thrown) {
        // Redacted where it enters: the gateway's finished errors are not searched again.
        const error = redactError(toGatewayError(thrown), thrownErrorRedactor(target.upstream));
        const retryable = !signal.aborted && isRetryableError(error);
        if (ticket) gate!.settle(ticket, target, errorHealth(error, signal.aborted));
        record(target, started, { error, retryable });
        // An attempt cut by the abort failed because of it: the abort's cause is the answer, not the upstream's.
        if (!retryable) throw signal.aborted ? cancelled(signal) : error;
        last = { error };
        lastDiscarded = false;
        // The same target would answer the same 404: straight to the next one.
        if (movesOnAtOnce(error)) retry = retries;
      }
      if (gate && retry < retries) {
        const cooling = gate.cooling(target);
        // Now cooling: move on at once, unless this is the upstream's own retry-after and nothing else is up.
        if (cooling && isRetryHint(cooling.cause) && wait !== undefined && !gate.anyAvailable(targets.slice(targetIndex + 1))) wait = Math.max(wait, cooling.remainingMs + 1);
        else if (cooling) retry = retries;
      }
      const isFinal = retry >= retries && (targetIndex === targets.length - 1 || (gate !== undefined && !gate.anyAvailable(targets.slice(targetIndex + 1))));
      if (isFinal) break tries;
      const delay = retry < retries ? (wait ?? Math.min(maxBackoffMs, backoffMs * 2 ** retry) * (1 - Math.random() * 0.25)) : 0;
      // Waiting into the deadline would only turn this answer into a time-out.
      if (deadlineAt !== undefined && performance.now() + delay >= deadlineAt) break tries;
      if ('response' in last) {
        lastDiscarded = true;
        await discardBody(last.response.body);
      }
      if (delay > 0) await sleep(delay, signal);
    }
  }
  // Targets that went cooling while this call waited: their cooling is the answer.
  if ((last === undefined || lastDiscarded) && gate && skipped.length > 0) throw gate.refuse(skipped);
  if (last === undefined) throw cancelled(signal);
  if ('error' in last) throw last.error;
  return { response: last.response, target: last.target, attempts };
}
