/**
 * The answer when every target of a route is cooling: at once, in the
 * caller's format, with `retry-after` set to when the first target is back.
 * Both official clients retry it (429, 503 and 529 are retryable, and they
 * honour `retry-after`).
 */
import { GatewayError } from '../errors.js';
import type { WireFormat } from '../types.js';
import { type Cooling, isRetryHint } from './health.js';
import { overloadedError } from './overloaded.js';

/**
 * Rate limits (each target's upstream answered 429 with a retry hint) give
 * a 429 `rate_limit_error` (chat `rate_limit_exceeded`); anything else a
 * chat 503 `upstream_cooling` / messages 529 `overloaded_error`, saying
 * whether the upstreams asked to wait (a 503 with a retry hint) or failed.
 *
 * @param coolings One per target, none empty.
 * @param now The clock the coolings' `until` is read on.
 */
export function allCoolingError(coolings: readonly Cooling[], format: WireFormat, now: number): GatewayError {
  const until = Math.min(...coolings.map((cooling) => cooling.until));
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  const headers = { 'retry-after': String(seconds) };
  const targets = coolings.length === 1 ? 'The upstream of this model is' : `All ${coolings.length} upstreams of this model are`;
  if (coolings.every((cooling) => cooling.cause === 'rate_limit')) {
    return new GatewayError('RATE_LIMITED', `${targets} rate-limited by their provider; retry after ${seconds} s.`, {
      chatCode: 'rate_limit_exceeded',
      headers,
    });
  }
  const why = coolings.every((cooling) => isRetryHint(cooling.cause)) ? 'unavailable and asked to wait' : 'cooling down after repeated failures';
  return overloadedError(format, `${targets} ${why}; retry after ${seconds} s.`, seconds, 'UPSTREAM_COOLING');
}
