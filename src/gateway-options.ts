/**
 * Options of `createGateway`.
 */
import type { AuthOptions } from './auth/verify-key.js';
import type { GatewayError } from './errors.js';
import type { FileStore } from './files/file-store.js';
import type { Catalog } from './models/catalog.js';
import type { ObservabilityOptions } from './observability/options.js';
import type { ReasoningBudgets } from './translate/map-reasoning-effort.js';
import type { GatewayRequest } from './types.js';
import type { Route } from './upstreams/routes.js';
import type { UsageRecord } from './usage.js';

/** Observability (`openTelemetry`, `prometheus`, `logger`) is documented on {@link ObservabilityOptions}. */
export interface GatewayOptions extends ObservabilityOptions {
  /**
   * How callers authenticate: `{ keys: ['sk-…'] }` or `{ verify: async (key, request) => principal | null }`.
   * Required: nothing unauthenticated reaches an upstream.
   */
  auth: AuthOptions;
  /**
   * Which upstream serves which model; first match wins. Default: the
   * embedded simulator serves every model (the catalog's models in the
   * messages format, all others in the chat format).
   */
  routes?: readonly Route[];
  /** The model matrix. Default: the twelve models of SPEC 2.6 (`DEFAULT_CATALOG`). */
  catalog?: Catalog;
  /**
   * Serves `/v1/files`. Default: the simulator's store when no `routes` are
   * given; otherwise the file endpoints answer 404 until a store is set
   * (use `upstreamFileStore(messagesUpstream(...))` to serve the vendor's files).
   */
  files?: FileStore;
  /**
   * Remove parameters a model rejects or the upstream format cannot express
   * (a rejected `temperature`, untranslatable chat fields) instead of
   * answering 400. Dropped names are listed in the `x-modelgate-dropped-params`
   * response header. Default false.
   */
  dropUnsupportedParams?: boolean;
  /** Largest request body accepted, in bytes (413 above). Default 32 MiB. */
  maxBodyBytes?: number;
  /** Heartbeat after this much upstream silence on a stream, in ms; 0 disables. Default 15000. */
  heartbeatMs?: number;
  /** `max_tokens` sent to messages-format upstreams when a chat request sets none. Default 4096. */
  defaultMaxTokens?: number;
  /** Thinking budgets per chat `reasoning_effort` level for models that take `thinking.enabled`. */
  reasoningBudgets?: Partial<ReasoningBudgets>;
  /**
   * Most chat choices (`n`) fanned out to a messages-format upstream, one
   * call per choice. 1 disables fan-out (`n > 1` is then a 400). Default 8.
   */
  maxChoices?: number;
  /** Called once per model call (completed, failed or aborted) with its usage. Errors it throws are ignored. */
  onUsage?: (record: UsageRecord) => void;
  /** Called for every error response (4xx and 5xx), e.g. to log 5xx causes. Errors it throws are ignored. */
  onError?: (event: { error: GatewayError; request: GatewayRequest; requestId: string }) => void;
}
