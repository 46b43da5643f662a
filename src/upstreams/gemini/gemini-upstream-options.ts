/**
 * The options of `geminiUpstream()`, apart from the client so that its
 * option schema and the client both import them (the dependency points one
 * way: client → schema → options).
 */
import type { Dispatcher } from 'undici';
import type { UpstreamPoolOptions, UpstreamTimeouts } from '../upstream-transport-options.js';
import type { GoogleAuthLike, VertexTokenProvider } from '../vertex/vertex-auth.js';

/** Where Gemini runs on Vertex AI, and how the gateway gets its Google access tokens. */
export interface GeminiVertexOptions {
  /** The Google Cloud project id. */
  projectId: string;
  /** The location: `global`, the multi-regions `us` / `eu`, or a region such as `us-central1`. */
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
}

/** Options of `geminiUpstream()`. */
export interface GeminiUpstreamOptions {
  /**
   * The Gemini API key (Google AI Studio), sent as `x-goog-api-key`.
   * Required unless `vertex` is given (Vertex AI takes Google access tokens
   * instead).
   */
  apiKey?: string;
  /** Serve the same models from Vertex AI (`publishers/google/models/{model}`) instead of Google AI Studio. */
  vertex?: GeminiVertexOptions;
  /**
   * The API's root, without the version (as `@google/genai`'s `baseUrl`):
   * the upstream adds `/v1beta/models/…` (AI Studio) or `/v1/projects/…`
   * (Vertex AI). Default: `https://generativelanguage.googleapis.com`, or
   * the Vertex AI endpoint of `vertex.region`
   * (`https://{region}-aiplatform.googleapis.com`, `https://aiplatform.googleapis.com` for `global`).
   */
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
