/**
 * The options of `openAICompatible()`, apart from the client so that its
 * option schema and the client both import them (the dependency points one
 * way: client → schema → options).
 */
import type { Dispatcher } from 'undici';
import type { UpstreamPoolOptions, UpstreamTimeouts } from './upstream-transport-options.js';

/** Options of `openAICompatible()`. */
export interface OpenAICompatibleOptions {
  /** Base URL including the version prefix, like the official client's `OPENAI_BASE_URL`: `https://api.openai.com/v1`. Query parameters (e.g. `api-version`) are sent on every call. */
  baseURL: string;
  /** The gateway's own key, sent as `authorization: Bearer <apiKey>`. Omit for upstreams without auth. */
  apiKey?: string;
  /** Extra headers sent on every call (e.g. `openai-organization`); they override caller headers. */
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
