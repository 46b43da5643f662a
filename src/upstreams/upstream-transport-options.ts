/**
 * The transport options every HTTP upstream takes (`openAICompatible`,
 * `messagesUpstream`, `azureOpenAI`, `bedrockUpstream`, `vertexUpstream`):
 * time-outs and the connection pool, in a file of their own so that the
 * clients, their option schemas and the error mapping all import them from
 * one place.
 */

/** Time-outs of one upstream, in milliseconds. */
export interface UpstreamTimeouts {
  /** TCP connect plus TLS handshake. Default 10000. */
  connectMs?: number;
  /** From sending the request to the response head (models think before answering). Default 300000. */
  firstByteMs?: number;
  /** Longest silence between two body chunks. Default 300000. */
  idleMs?: number;
}

/** Defaults of {@link UpstreamTimeouts}. */
export const DEFAULT_UPSTREAM_TIMEOUTS: Readonly<Required<UpstreamTimeouts>> = Object.freeze({
  connectMs: 10_000,
  firstByteMs: 300_000,
  idleMs: 300_000,
});

/** Connection pool settings. */
export interface UpstreamPoolOptions {
  /** Most sockets per origin. Default: unlimited. */
  connections?: number;
  /** How long an idle socket is kept for reuse, in ms. Default 4000 (undici's; shorter than most servers' keep-alive). */
  keepAliveTimeoutMs?: number;
}
