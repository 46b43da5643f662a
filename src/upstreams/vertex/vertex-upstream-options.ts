/**
 * The options of `vertexUpstream()`, apart from the client so that its
 * option schema and the client both import them (the dependency points one
 * way: client → schema → options).
 */
import type { Dispatcher } from 'undici';
import type { UpstreamPoolOptions, UpstreamTimeouts } from '../upstream-transport-options.js';
import type { GoogleAuthLike, VertexTokenProvider } from './vertex-auth.js';

/** Options of `vertexUpstream()`. */
export interface VertexUpstreamOptions {
  /** The Google Cloud project id. */
  projectId: string;
  /** The location: `global`, the multi-regions `us` / `eu`, or a region such as `us-east5`. */
  region: string;
  /**
   * An OAuth2 access token (scope `cloud-platform`), or a function returning
   * one: a string (called again before every request) or `{ token,
   * expiresAt }` (kept until five minutes before `expiresAt`). Default:
   * Application Default Credentials through the optional
   * `google-auth-library`.
   */
  accessToken?: string | VertexTokenProvider;
  /** The `GoogleAuth` (from `google-auth-library`) to take tokens from, instead of a new one with the `cloud-platform` scope. */
  googleAuth?: GoogleAuthLike;
  /** The API's base URL, with its `/v1`. Default: by `region` (`https://{region}-aiplatform.googleapis.com/v1`, …). */
  baseURL?: string;
  /** Extra headers sent on every call (`x-goog-user-project`, …). */
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
