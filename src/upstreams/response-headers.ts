/**
 * Which upstream response headers reach the client: request ids (the
 * official clients expose them as `requestID`, useful in vendor support
 * tickets), retry hints and the simulator's marks. Everything else (cookies,
 * server banners, framing) stays behind.
 *
 * The upstream's rate-limit state (`x-ratelimit-*`, `anthropic-ratelimit-*`)
 * only on request (`rateLimits`): it describes the key the call was made
 * with. With the gateway's key that is the operator's account, shared by
 * every caller (its quota is the operator's business); with the caller's own
 * key (`keyPassthrough`) it is the caller's. `retry-after` always travels:
 * it is the caller's hint after a 429 or 503, whoever's limit it was.
 *
 * @see ../../shared/PROTOCOLS.md A.8 (`request-id`, `retry-after-ms`) and B.5 (`x-request-id`)
 */
import { isHeaderName, toHeaderValue } from '../header-value.js';
import { DID_YOU_MEAN_HEADER, SIMULATED_HEADER } from './simulated-headers.js';

// The simulator's marks travel too: a simulated answer stays marked through every gateway it passes.
const RELAYED = new Set(['request-id', 'x-request-id', 'retry-after', 'retry-after-ms', 'x-should-retry', SIMULATED_HEADER, DID_YOU_MEAN_HEADER]);
const RATE_LIMIT_PREFIXES = ['x-ratelimit-', 'anthropic-ratelimit-'];

/** Options of {@link isRelayedResponseHeader} and {@link pickResponseHeaders}. */
export interface RelayedHeaderOptions {
  /** Relay the upstream's rate-limit headers too: only when the call carried the caller's own key. Default false. */
  rateLimits?: boolean;
}

/** True for a rate-limit header of either vendor convention (`x-ratelimit-*`, `anthropic-ratelimit-*`); `lower` is lower case. */
export function isRateLimitHeader(lower: string): boolean {
  for (const prefix of RATE_LIMIT_PREFIXES) if (lower.startsWith(prefix)) return true;
  return false;
}

/** True for an upstream response header that is relayed to the client. */
export function isRelayedResponseHeader(name: string, options: RelayedHeaderOptions = {}): boolean {
  const lower = name.toLowerCase();
  if (RELAYED.has(lower)) return true;
  // A prefix admits any suffix: the whole name must still be a valid one.
  return options.rateLimits === true && isRateLimitHeader(lower) && isHeaderName(lower);
}

/**
 * The upstream headers to send on to the client: `request-id`,
 * `x-request-id`, `retry-after`, `retry-after-ms`, `x-should-retry`,
 * `x-modelgate-simulated`, `x-modelgate-did-you-mean`, and with
 * `rateLimits` also `x-ratelimit-*` and `anthropic-ratelimit-*`, each value
 * sanitised (`toHeaderValue`: an in-process upstream is not held to HTTP's
 * rules). Content type and length are the response writer's business and
 * are not included.
 */
export function pickResponseHeaders(headers: Readonly<Record<string, string>>, options: RelayedHeaderOptions = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (isRelayedResponseHeader(name, options)) out[name.toLowerCase()] = toHeaderValue(value);
  }
  return out;
}
