/**
 * Which caller headers travel on to an upstream.
 *
 * An allow-list, not a deny-list: a new SDK header must not start reaching
 * vendors (or carrying account-scoped values such as `openai-organization`)
 * just because nobody thought of it. Credentials and hop-by-hop headers are
 * dropped even when allowed explicitly.
 */
import type { IncomingHeaders } from '../types.js';

/** Headers forwarded by default: the vendor protocol headers and W3C trace context. */
export const DEFAULT_FORWARDED_HEADERS: readonly string[] = Object.freeze([
  'anthropic-version',
  'anthropic-beta',
  'traceparent',
  'tracestate',
]);

/** Prefixes forwarded by default: `x-simulator-*` drives the simulator's fault injection. */
export const DEFAULT_FORWARDED_PREFIXES: readonly string[] = Object.freeze(['x-simulator-']);

// RFC 9110 §7.6.1 hop-by-hop headers, plus framing headers undici sets itself.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

// Never forwarded: the caller's key only reaches an upstream through `callerKey` (key passthrough).
const CREDENTIALS = new Set(['authorization', 'x-api-key', 'cookie', 'api-key', 'x-goog-api-key']);

/** True for headers that must never be forwarded whatever the configuration. */
export function isUnforwardableHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return HOP_BY_HOP.has(lower) || CREDENTIALS.has(lower) || lower.startsWith('proxy-');
}

// Built once: this runs on every upstream call.
const DEFAULT_ALLOWED: ReadonlySet<string> = new Set(DEFAULT_FORWARDED_HEADERS);
const NONE: ReadonlySet<string> = new Set();

function allowedWith(extra: readonly string[]): ReadonlySet<string> {
  const allowed = new Set(DEFAULT_FORWARDED_HEADERS);
  for (const name of extra) allowed.add(name.toLowerCase());
  return allowed;
}

/** Options of {@link forwardHeaders}. */
export interface ForwardHeadersOptions {
  /** Extra header names to forward (case-insensitive), on top of {@link DEFAULT_FORWARDED_HEADERS}. */
  allow?: readonly string[];
}

/**
 * Picks the caller headers an upstream call should carry: by default
 * `anthropic-version`, `anthropic-beta`, `traceparent`, `tracestate` and
 * `x-simulator-*`. Names come out lower case; repeated headers are joined
 * with `, `. Hop-by-hop headers (and any named in `connection`), `proxy-*`
 * and all credentials (`authorization`, `x-api-key`, `cookie`, ...) are
 * always dropped.
 */
export function forwardHeaders(incoming: IncomingHeaders, options: ForwardHeadersOptions = {}): Record<string, string> {
  const allowed = options.allow?.length ? allowedWith(options.allow) : DEFAULT_ALLOWED;
  const connection = incoming.connection ?? incoming.Connection;
  const connectionListed = connection === undefined ? NONE : new Set(
    flatten(connection)
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string> = {};
  for (const rawName of Object.keys(incoming)) {
    const value = incoming[rawName];
    if (value === undefined) continue;
    const name = rawName.toLowerCase();
    // The allow-list rejects almost every header, so it is checked first (this runs per upstream call).
    if (!allowed.has(name) && !hasForwardedPrefix(name)) continue;
    if (isUnforwardableHeader(name) || connectionListed.has(name)) continue;
    out[name] = flatten(value);
  }
  return out;
}

function hasForwardedPrefix(name: string): boolean {
  for (const prefix of DEFAULT_FORWARDED_PREFIXES) if (name.startsWith(prefix)) return true;
  return false;
}

function flatten(value: string | string[] | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : value.join(', ');
}
