/**
 * Options of `createGateway`.
 */
import type { Guard } from './guards/guard-types.js';
import type { AdmissionOptions } from './routing/admission-options.js';
import type { AuthOptions } from './auth/verify-key.js';
import type { CacheOptions } from './cache/cache-options.js';
import type { RequestBoundsOptions } from './bounds/request-bounds-options.js';
import type { StreamBoundsOptions } from './bounds/stream-bounds-options.js';
import type { GatewayError } from './errors.js';
import type { LimitsOptions } from './limits/limit-options.js';
import type { FilesOption } from './files/files-options.js';
import type { Catalog } from './models/catalog.js';
import type { ObservabilityOptions } from './observability/options.js';
import type { ResponseStore } from './responses/response-store.js';
import type { ResponsesOptions } from './responses/responses-options.js';
import type { ReasoningBudgets } from './models/thinking-budgets.js';
import type { GatewayRequest } from './types.js';
import type { Route } from './routing/routes.js';
import type { RoutingOptions } from './routing/routing-options.js';
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
  /** The model matrix. Default: the twelve messages-interface models (`DEFAULT_CATALOG`). */
  catalog?: Catalog;
  /**
   * Serves `/v1/files`: `{ store, shared?, allowDelete?, allowPrincipal? }`
   * (`FilesOptions`), or a store alone with those defaults. Every
   * store call names the calling principal; keys restricted by
   * `allowedModels` get 403 unless `allowPrincipal` lets them in; deletion
   * answers 403 unless `allowDelete: true`. A store that keeps no owners
   * (`upstreamFileStore`: the vendor account's files) needs `shared`.
   * Default: with `routes`, none (the file endpoints answer 404 "no file
   * store on this gateway"); without, the simulator's store, which keeps
   * files per principal (deletion on). `false` turns the file endpoints off (404).
   *
   * @example files: { store: upstreamFileStore(vendor), shared: true }
   */
  files?: FilesOption;
  /**
   * Remove parameters a model rejects or the upstream format cannot express
   * (a rejected `temperature`, untranslatable chat fields) instead of
   * answering 400. Dropped names are listed in the `x-modelgate-dropped-params`
   * response header. Default false.
   */
  dropUnsupportedParams?: boolean;
  /**
   * Convert a messages request's `thinking` to the form the model takes
   * instead of answering the thinking rule's 400 error, for agent clients that send
   * `thinking: {type: "adaptive"}` to every model: adaptive on a model that
   * takes `enabled` → enabled with the budget of `output_config.effort`
   * (`reasoningBudgets`; default `high`), at most half of `max_tokens`
   * (dropped when that is under 1024); enabled on an adaptive model →
   * adaptive; any thinking on a model without thinking → dropped. Each
   * conversion is reported in the `x-modelgate-adapted-thinking` response
   * header. Default false.
   */
  adaptThinking?: boolean;
  /** Largest request body accepted, in bytes (413 above). Default 32 MiB. */
  maxBodyBytes?: number;
  /**
   * Longest wait for an upstream's answer, in ms, across every retry, retry
   * wait and fallback of one model call: until a stream's response head, or
   * until a non-streamed answer's whole body. Past it the client gets a 504
   * (`timeout_error`) and the upstream request is aborted; a retry whose
   * wait would end past it is not made (the last answer is relayed instead).
   * A started stream is bounded by the upstream's idle time-out and by
   * `streamBounds` instead.
   * 0 disables it. Default 300000 (one first-byte time-out of an upstream).
   */
  requestTimeoutMs?: number;
  /**
   * Longest time the gateway's own reading of a request body may take, in
   * ms; a client that sends its body slower gets a 408 and its connection
   * is closed. Bodies a framework parser read (`express.json()`,
   * `@koa/bodyparser`) are that parser's business (set the server's
   * `requestTimeout`). 0 disables it. Default 60000.
   */
  bodyTimeoutMs?: number;
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
  /**
   * Per-principal limits on requests, tokens, concurrent calls and spend
   * (README "Limits and budgets"). Default: none.
   */
  limits?: LimitsOptions;
  /**
   * Called for every error response (4xx and 5xx), e.g. to log 5xx causes. Errors it throws are ignored.
   * The error is the one the client gets (upstream text in it redacted, its cause chain redacted too), except that
   * an upstream without `name` is named by its `host:port` here and `"(unnamed upstream)"` to the client; the request's
   * credential headers (`authorization`, `x-api-key`, `proxy-authorization`, `cookie`) read `[redacted]`.
   * Default: none, and then, unless `logger` is set, operational failures print on stderr (see `logger`).
   */
  onError?: (event: { error: GatewayError; request: GatewayRequest; requestId: string }) => void;
  /**
   * More strings no client or hook may see (a proxy password in your own
   * `dispatcher`, a key your custom upstream sends without declaring it in
   * `secrets()`). The keys and credential headers of `openAICompatible` and
   * `messagesUpstream` are redacted without being listed here. Default none.
   */
  secrets?: readonly string[];
  /**
   * More caller headers to forward upstream (case-insensitive), on top of
   * each format's defaults: `anthropic-version`, `anthropic-beta` to
   * messages upstreams, `traceparent`, `tracestate` to every upstream.
   * Nothing else a caller sends is forwarded (not `openai-organization`,
   * cookies, `x-forwarded-*`, the simulator's `x-simulator-*`).
   * Credentials (`authorization`, `x-api-key`, `cookie`, ...), framing
   * (`host`, `content-length`, ...), proxy headers (`forwarded`,
   * `x-forwarded-*`, `proxy-*`), `via` and `x-modelgate-*` are refused with
   * a `GatewayConfigError`. Default none.
   *
   * @example forwardHeaders: ['x-my-trace', 'openai-organization']
   */
  forwardHeaders?: readonly string[];
  /**
   * Where `/v1/responses` keeps responses, for `previous_response_id`,
   * `item_reference`, `GET /v1/responses/{id}` and its input items:
   * `memoryResponseStore()` (one process) or `redisResponseStore({ client })`
   * (shared by every instance). Default: none; requests that send
   * `store: false` and their whole conversation (as Codex does) need none.
   */
  responseStore?: ResponseStore;
  /** The Responses API's other options: built-in tools, the reasoning seal. */
  responses?: ResponsesOptions;
  /**
   * The response cache: an identical request (same interface, same
   * upstream model, the same fields that can change the answer) is answered
   * from a stored answer, in the caller's format and mode, without an
   * upstream call: `{ store, scope?, models?, ttlSeconds?, requestControls?,
   * waitMs?, lockMs?, storeTimeoutMs?, storeRetryMs? }` ({@link CacheOptions}).
   * Entries answer only the principal whose call filled them unless
   * `scope: 'shared'`. A route leaves the cache with `cache: false`.
   * Default: no cache.
   *
   * @example cache: { store: memoryResponseCache(), ttlSeconds: 600 }
   */
  cache?: CacheOptions;
  /**
   * Routing across targets: per-target health (cooldowns, half-open probes),
   * per instance by default, or shared via `redisHealthStore({ client })`.
   */
  routing?: RoutingOptions;
  /**
   * Admission control: most model calls (chat completions, messages,
   * Responses; requests in progress and open streams) this gateway
   * instance serves at once, and an optional bounded wait for a place.
   * Past it callers get 503 `overloaded` (OpenAI-style) or 529
   * `overloaded_error` (messages) with `retry-after`. Default: no limit.
   */
  admission?: AdmissionOptions;
  /**
   * What one request may hold (model id length, counts of messages, content
   * parts and tools, string lengths, nesting depth, keys per object, stored items a
   * Responses request resolves), checked before any other work on the body.
   * Past a bound the caller gets a 400 in its format naming the field and
   * the bound. Defaults in `DEFAULT_REQUEST_BOUNDS`.
   */
  requestBounds?: RequestBoundsOptions;
  /**
   * How much one streamed answer may carry and how long it may last:
   * `{ maxBytes, maxDurationMs }` (0 disables each), on top of the
   * upstream's idle time-out. Past a bound the upstream request is aborted
   * and the client's stream ends as a broken upstream stream does: an
   * error event in its format (`error` + `response.failed` for Responses)
   * naming the bound; the usage seen so far is reported, and the attempt
   * counts as a failure of its target (as an idle time-out does). Defaults
   * in `DEFAULT_STREAM_BOUNDS`: 256 MiB and 2 h, more than any real answer
   * needs.
   *
   * @example streamBounds: { maxBytes: 64 * 1024 * 1024, maxDurationMs: 30 * 60_000 }
   */
  streamBounds?: StreamBoundsOptions;
  /**
   * Your code on the traffic of every interface (chat, messages, Responses):
   * each guard's `input` checks or rewrites the request before it goes
   * upstream, its `output` the answer, whole or streamed. They run in
   * order, these first, then the route's `guards`. Default: none (nothing
   * is checked, at no cost). See `docs/guards.md`.
   *
   * @example guards: [piiRedactor(), denyList({ words: ['project-x'] })]
   */
  guards?: readonly Guard[];
}
