/**
 * What one upstream attempt says about its target's health. Failures are
 * the answers worth another attempt elsewhere: no response (connection
 * error, time-out), an endpoint the upstream does not serve (a 404 for the
 * path, `UPSTREAM_ENDPOINT_MISSING`), 5xx (529 included; not 501 or 508), and a 429 without a retry hint; a
 * 429 or a 503 with one cools the target for that long (the upstream said
 * when to come back). Any other answer (2xx, 4xx) shows a working target.
 *
 * @internal
 */
import type { GatewayError } from '../errors.js';
import type { AttemptHealth } from './health.js';

/**
 * Health of an attempt that got a response head; `retryAfterMs` is the
 * upstream's hint, if any. Answers that no retry can change say nothing
 * about the target's health: 501, 508 (a request loop: the configuration's
 * fault, and its 508 must reach the caller rather than a cooldown) and any
 * answer marked `x-should-retry: false`.
 */
export function responseHealth(status: number, retryAfterMs: number | undefined, shouldRetry = true): AttemptHealth {
  if (!shouldRetry || status === 501 || status === 508) return { kind: 'neutral' };
  if (status === 429) return retryAfterMs === undefined ? { kind: 'failure' } : { kind: 'rate_limited', retryAfterMs };
  if (status === 503 && retryAfterMs !== undefined) return { kind: 'unavailable', retryAfterMs };
  return status >= 500 ? { kind: 'failure' } : { kind: 'success' };
}

/**
 * Health of an attempt that got no response. The request's own deadline
 * passing counts (the target did not answer in time); the client leaving,
 * or an error of the gateway's own, says nothing about the target.
 */
export function errorHealth(error: GatewayError, aborted: boolean): AttemptHealth {
  if (error.code === 'UPSTREAM_TIMEOUT' || error.code === 'UPSTREAM_ENDPOINT_MISSING') return { kind: 'failure' };
  if (!aborted && error.code === 'UPSTREAM_UNAVAILABLE') return { kind: 'failure' };
  return { kind: 'neutral' };
}

/**
 * True for a failure that a retry of the same target cannot change, though
 * another target may answer: the upstream has no such endpoint under its
 * base URL (it answers 404 to every call alike). The call moves on at once.
 */
export function movesOnAtOnce(error: GatewayError): boolean {
  return error.code === 'UPSTREAM_ENDPOINT_MISSING';
}

/**
 * What a stream says about its target once it ended: relayed to its end, a
 * success; cut, silent past its idle time-out, or an in-band server error
 * (5xx, 529, a 429), a failure; an in-band client error (4xx) or a client
 * that left, nothing.
 */
export function streamHealth(status: 'completed' | 'failed' | 'aborted', error: GatewayError | undefined): AttemptHealth {
  if (status === 'completed') return { kind: 'success' };
  if (status === 'aborted' || error === undefined) return { kind: 'neutral' };
  if (error.code === 'UPSTREAM_TIMEOUT' || error.code === 'UPSTREAM_UNAVAILABLE') return { kind: 'failure' };
  if (error.code === 'UPSTREAM_ERROR' && (error.status >= 500 || error.status === 429)) return { kind: 'failure' };
  return { kind: 'neutral' };
}
