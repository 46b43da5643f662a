/**
 * The options of `messagesUpstream()`, apart from the client so that its
 * option schema and the client both import them (the dependency points one
 * way: client → schema → options).
 */
import type { Dispatcher } from 'undici';
import type { UpstreamPoolOptions, UpstreamTimeouts } from './upstream-transport-options.js';

/** Options of `messagesUpstream()`. */
export interface MessagesUpstreamOptions {
  /** Base URL WITHOUT `/v1`, like `ANTHROPIC_BASE_URL`: `https://api.anthropic.com`. */
  baseURL: string;
  /** The gateway's own key, sent as `x-api-key`. Omit for upstreams without auth. */
  apiKey?: string;
  /** `anthropic-version` sent when the caller sent none. Default `'2023-06-01'`. */
  version?: string;
  /** Extra headers sent on every call; they override caller headers. */
  headers?: Record<string, string>;
  /** Name in logs, usage records and error messages. Default: the base URL's host. */
  name?: string;
  /** Time-outs; defaults in `DEFAULT_UPSTREAM_TIMEOUTS` (10 s connect, 300 s first byte, 300 s idle). */
  timeouts?: UpstreamTimeouts;
  /** Connection pool settings (keep-alive is always on). */
  pool?: UpstreamPoolOptions;
  /** Use this undici dispatcher instead of a private keep-alive `Agent`. */
  dispatcher?: Dispatcher;
}
