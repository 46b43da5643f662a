/**
 * Response headers of every SSE response the gateway sends.
 *
 * `x-accel-buffering: no` stops nginx-style proxies from holding events back;
 * `connection: keep-alive` is hop-by-hop and left to the HTTP server.
 */

/** The SSE response headers: `content-type: text/event-stream`, `cache-control: no-cache`, `x-accel-buffering: no`. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/** A fresh header object: `extra` (e.g. relayed request ids) plus {@link SSE_HEADERS}, which win. */
export function createSseHeaders(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { ...extra, ...SSE_HEADERS };
}
