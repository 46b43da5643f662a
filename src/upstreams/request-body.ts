/**
 * The bytes an upstream call sends: the caller's exact bytes when the body
 * passes through unchanged, else the JSON of the (translated) body.
 *
 * @internal
 */
import type { UpstreamCall } from './upstream.js';

export function requestBody(call: UpstreamCall): string | Uint8Array | undefined {
  if (call.rawBody !== undefined) return call.rawBody;
  return call.body === undefined ? undefined : JSON.stringify(call.body);
}

/**
 * The caller headers minus anything that must not be overridden by them:
 * credentials and framing are the client's own business, whatever
 * `call.headers` holds (defence in depth behind `forwardHeaders`).
 */
export function callerHeaders(call: UpstreamCall, isUnforwardable: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers)) {
    if (!isUnforwardable(name)) out[name.toLowerCase()] = value;
  }
  return out;
}
