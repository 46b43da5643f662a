/**
 * The caller headers that go into a cache key: those of the forwarding
 * allow-list the route's upstreams are sent (`anthropic-beta`,
 * `anthropic-version`, the operator's `forwardHeaders`), since a vendor
 * answers differently under another beta or version. Trace context is left
 * out: it differs on every request and changes no answer. So are an
 * in-process upstream's own control prefixes (the simulator's fault
 * controls): they steer one call (a failure, a delay), and a failed call
 * is never stored.
 *
 * @internal
 */
import type { IncomingHeaders } from '../types.js';
import type { ForwardingTarget, HeaderForwarding } from '../upstreams/forward-headers.js';

/** Forwarded headers that only carry trace context (W3C Trace Context and Baggage). */
const TRACE_HEADERS: ReadonlySet<string> = new Set(['traceparent', 'tracestate', 'baggage']);

export interface KeyHeadersInput {
  forwarding: HeaderForwarding;
  headers: IncomingHeaders;
  /** The upstreams the request may be sent to, in route order. */
  upstreams: readonly (ForwardingTarget & { readonly name: string })[];
}

/**
 * Per upstream that is sent any, `[name, [[header, value], ...]]` with the
 * headers sorted by name; an empty list when no upstream is sent any (the
 * common case, which then adds nothing to the key).
 */
export function keyHeaders({ forwarding, headers, upstreams }: KeyHeadersInput): Array<[string, Array<[string, string]>]> {
  const out: Array<[string, Array<[string, string]>]> = [];
  const seen = new Set<string>();
  for (const upstream of upstreams) {
    if (seen.has(upstream.name)) continue;
    seen.add(upstream.name);
    const picked = Object.entries(forwarding.pick(headers, { format: upstream.format })).filter(([name]) => !TRACE_HEADERS.has(name));
    if (picked.length > 0) out.push([upstream.name, picked.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
  }
  return out;
}
