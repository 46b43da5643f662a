/**
 * The check before every upstream call (and after each slow step before it:
 * a custom `verify`, the rules, the limits store, the response store): a
 * client that has gone costs no upstream call, no limit reservation, no
 * store lookup. The answer goes nowhere; it is a 499 for the logs and
 * `onError`, not a 5xx.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import { type AbortSource, abortSourceOf } from './abort-source.js';

/** The error of a request whose client left before its upstream call. */
export function clientLeftError(): GatewayError {
  return new GatewayError('CLIENT_CLOSED_REQUEST', 'The client closed the request before the gateway called an upstream.');
}

/**
 * A failure that followed the client's leaving is that leaving: the upstream
 * call (or the read of its answer) was cancelled because the client went,
 * so it is a 499, not an upstream's 502.
 */
export function asClientLeft(error: GatewayError, client: AbortSource): GatewayError {
  if (error.code !== 'UPSTREAM_UNAVAILABLE' || !client.aborted) return error;
  return new GatewayError('CLIENT_CLOSED_REQUEST', 'The client closed the request before the upstream answered.', { cause: error });
}

/** Throws {@link clientLeftError} when `client` has aborted. */
export function assertClientPresent(client: AbortSource): void {
  if (client.aborted) throw clientLeftError();
}

/** Throws {@link clientLeftError} when the client of `request` has gone. */
export function assertRequestClientPresent(request: { readonly signal: AbortSignal }): void {
  assertClientPresent(abortSourceOf(request));
}
