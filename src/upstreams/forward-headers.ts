/**
 * Which caller headers travel on to an upstream.
 *
 * An allow-list per wire format, not a deny-list: a new SDK header, a
 * proxy's `x-forwarded-for`, the caller's cookies or the embedded
 * simulator's `x-simulator-*` fault controls must not start reaching a
 * vendor just because nobody thought of them. What an operator adds
 * (`GatewayOptions.forwardHeaders`) comes on top; credentials, framing,
 * proxy and gateway-internal headers are refused even there.
 */
import type { IncomingHeaders, WireFormat } from '../types.js';

/**
 * Caller headers forwarded by default, per upstream format: the vendor
 * protocol headers a messages upstream reads, and W3C trace context for both.
 */
export const FORWARDED_HEADERS: Readonly<Record<WireFormat, readonly string[]>> = Object.freeze({
  messages: Object.freeze(['anthropic-version', 'anthropic-beta', 'traceparent', 'tracestate']),
  chat: Object.freeze(['traceparent', 'tracestate']),
});

// RFC 9110 §7.6.1 hop-by-hop headers, plus framing headers undici sets itself.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length', 'expect']);

// The caller's key only reaches an upstream through `callerKey` (key passthrough); cookies are the caller's session.
const CREDENTIALS = new Set(['authorization', 'x-api-key', 'cookie', 'api-key', 'x-goog-api-key']);

// Where the request came from, as proxies in front of the gateway tell it: internal addresses.
const PROXY = new Set(['forwarded', 'x-real-ip']);

/** Why a header can never be forwarded, or undefined when it can be. */
function refusalOf(lower: string): string | undefined {
  if (CREDENTIALS.has(lower)) return 'it carries credentials (a route forwards the caller key with `keyPassthrough`)';
  if (HOP_BY_HOP.has(lower)) return 'it frames one connection; the upstream client sets its own';
  if (PROXY.has(lower) || lower.startsWith('x-forwarded-') || lower.startsWith('proxy-')) return 'it describes the proxies and addresses in front of the gateway';
  if (lower.startsWith('x-modelgate-')) return "it is the gateway's own";
  return undefined;
}

/** True for headers that must never be forwarded whatever the configuration (the upstream clients drop them too). */
export function isUnforwardableHeader(name: string): boolean {
  return refusalOf(name.toLowerCase()) !== undefined;
}

/**
 * Why `name` may not be in `forwardHeaders` (undefined when it may): the
 * unforwardable headers, and `via`, which the gateway sets itself.
 */
export function forwardHeaderRefusal(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower === 'via') return 'the gateway sets it itself (loop detection)';
  return refusalOf(lower);
}

/** Options of {@link forwardHeaders}. */
export interface ForwardHeadersOptions {
  /** The upstream's wire format: picks the default list. Default `messages`. */
  format?: WireFormat;
  /** Extra header names to forward (case-insensitive), on top of {@link FORWARDED_HEADERS}. */
  allow?: readonly string[];
  /** Header name prefixes forwarded too (an in-process upstream's own controls, e.g. `x-simulator-`). */
  prefixes?: readonly string[];
}

const NONE: ReadonlySet<string> = new Set();
const NO_PREFIXES: readonly string[] = [];

// Built once: this runs on every upstream call.
const DEFAULT_ALLOWED: Readonly<Record<WireFormat, ReadonlySet<string>>> = {
  messages: new Set(FORWARDED_HEADERS.messages),
  chat: new Set(FORWARDED_HEADERS.chat),
};

/** The allowed names of one format with `extra` on top. */
export function allowedHeaders(format: WireFormat, extra: readonly string[] = []): ReadonlySet<string> {
  if (extra.length === 0) return DEFAULT_ALLOWED[format];
  const allowed = new Set(FORWARDED_HEADERS[format]);
  for (const name of extra) allowed.add(name.toLowerCase());
  return allowed;
}

/**
 * Picks the caller headers an upstream call should carry: by default
 * `anthropic-version`, `anthropic-beta` (messages upstreams only),
 * `traceparent` and `tracestate`. Names come out lower case; repeated
 * headers are joined with `, `. Hop-by-hop headers (and any named in
 * `connection`), proxy headers, `x-modelgate-*` and all credentials
 * (`authorization`, `x-api-key`, `cookie`, ...) are always dropped.
 */
export function forwardHeaders(incoming: IncomingHeaders, options: ForwardHeadersOptions = {}): Record<string, string> {
  return pickHeaders(incoming, allowedHeaders(options.format ?? 'messages', options.allow), options.prefixes ?? NO_PREFIXES);
}

/** {@link forwardHeaders} with the allowed set already built. */
export function pickHeaders(incoming: IncomingHeaders, allowed: ReadonlySet<string>, prefixes: readonly string[]): Record<string, string> {
  const connection = incoming.connection ?? incoming.Connection;
  const connectionListed =
    connection === undefined
      ? NONE
      : new Set(
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
    if (!allowed.has(name) && !hasPrefix(name, prefixes)) continue;
    if (isUnforwardableHeader(name) || connectionListed.has(name)) continue;
    out[name] = flatten(value);
  }
  return out;
}

function hasPrefix(name: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) if (name.startsWith(prefix)) return true;
  return false;
}

function flatten(value: string | string[] | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : value.join(', ');
}

/** What {@link HeaderForwarding} needs of an upstream. */
export interface ForwardingTarget {
  readonly format: WireFormat;
  readonly callerHeaderPrefixes?: readonly string[] | undefined;
}

/**
 * The caller headers of one gateway: the defaults of each format plus the
 * operator's `forwardHeaders`, compiled once.
 */
export class HeaderForwarding {
  private readonly allowed: Readonly<Record<WireFormat, ReadonlySet<string>>>;

  constructor(extra: readonly string[] = []) {
    this.allowed = { messages: allowedHeaders('messages', extra), chat: allowedHeaders('chat', extra) };
  }

  /** The caller headers a call to `upstream` carries (its own control prefixes included, for an in-process one). */
  pick(incoming: IncomingHeaders, upstream: ForwardingTarget): Record<string, string> {
    return pickHeaders(incoming, this.allowed[upstream.format], upstream.callerHeaderPrefixes ?? NO_PREFIXES);
  }
}

/** The forwarding of a gateway without `forwardHeaders`. */
export const DEFAULT_FORWARDING = new HeaderForwarding();
