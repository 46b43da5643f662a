/**
 * Which upstream response headers reach the client: request ids (the
 * official clients expose them as `requestID`, useful in vendor support
 * tickets), retry hints, rate-limit state and the simulator's marks. Everything else (cookies,
 * server banners, framing) stays behind.
 *
 * @see ../../shared/PROTOCOLS.md A.8 (`request-id`, `retry-after-ms`) and B.5 (`x-request-id`)
 */
import { isHeaderName, toHeaderValue } from '../header-value.js';
import { DID_YOU_MEAN_HEADER, SIMULATED_HEADER } from './simulated-headers.js';

// The simulator's marks travel too: a simulated answer stays marked through every gateway it passes.
const RELAYED = new Set(['request-id', 'x-request-id', 'retry-after', 'retry-after-ms', 'x-should-retry', SIMULATED_HEADER, DID_YOU_MEAN_HEADER]);
const RELAYED_PREFIXES = ['x-ratelimit-', 'anthropic-ratelimit-'];

/** True for an upstream response header that is relayed to the client. */
export function isRelayedResponseHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (RELAYED.has(lower)) return true;
  // A prefix admits any suffix: the whole name must still be a valid one.
  for (const prefix of RELAYED_PREFIXES) if (lower.startsWith(prefix)) return isHeaderName(lower);
  return false;
}

/**
 * The upstream headers to send on to the client: `request-id`,
 * `x-request-id`, `retry-after`, `retry-after-ms`, `x-should-retry`,
 * `x-modelgate-simulated`, `x-modelgate-did-you-mean`, `x-ratelimit-*` and
 * `anthropic-ratelimit-*`, each value sanitised (`toHeaderValue`: an
 * in-process upstream is not held to HTTP's rules). Content type and length
 * are the response writer's business and are not included.
 */
export function pickResponseHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (isRelayedResponseHeader(name)) out[name.toLowerCase()] = toHeaderValue(value);
  }
  return out;
}
