/**
 * Time-outs of the example servers for slow or stalled clients. Node's
 * defaults (60 s for the headers, 300 s for the whole request) let a client
 * that trickles its request hold a socket for five minutes; these are
 * shorter and printed at startup. They bound receiving the request only: a
 * long streamed answer is not cut by them.
 */
import type { Server } from 'node:http';

/** The time-outs the examples set, in ms. */
export const EXAMPLE_SERVER_TIMEOUTS = Object.freeze({
  /** `server.headersTimeout`: the whole request head. */
  headersMs: 15_000,
  /** `server.requestTimeout`: the whole request, head and body. */
  requestMs: 60_000,
});

/** Sets {@link EXAMPLE_SERVER_TIMEOUTS} on `server`; returns the startup note saying so. */
export function applyServerTimeouts(server: Server): string {
  server.headersTimeout = EXAMPLE_SERVER_TIMEOUTS.headersMs;
  server.requestTimeout = EXAMPLE_SERVER_TIMEOUTS.requestMs;
  return `Slow clients: request head within ${server.headersTimeout / 1000} s (headersTimeout), whole request within ${server.requestTimeout / 1000} s (requestTimeout); answers are not cut.`;
}
