/**
 * modelgate: the framework-free core.
 *
 * `createGateway` builds the gateway; adapters (`modelgate/express`,
 * `modelgate/koa`, `modelgate/node`) mount it. The validators, the model
 * matrix and its rules, the upstream clients and the translators are
 * exported for use on their own (in your tests, say).
 */
export { createGateway } from './gateway.js';
export type { Gateway } from './gateway.js';
export type { GatewayOptions } from './gateway-options.js';
export type { AdmissionOptions } from './routing/admission-options.js';
export type { RequestBounds, RequestBoundsOptions } from './bounds/request-bounds-options.js';
export { DEFAULT_REQUEST_BOUNDS } from './bounds/request-bounds-options.js';
export type { StreamBounds, StreamBoundsOptions } from './bounds/stream-bounds-options.js';
export { DEFAULT_STREAM_BOUNDS } from './bounds/stream-bounds-options.js';
export type { ShutdownOptions } from './lifecycle/shutdown.js';
export type { GatewayContext } from './gateway-context.js';
export * from './types.js';
export * from './errors.js';
export { EndpointMissingDetail } from './upstreams/endpoint-missing.js';
export { GatewayConfigError, isGatewayConfigError } from './options/gateway-config-error.js';
export type { ConfigProblem } from './options/gateway-config-error.js';
export * from './render-error.js';
export type { UsageRecord, TokenUsage } from './usage.js';
export type { GatewayLogger, ObservabilityOptions, OpenTelemetryOptions, PrometheusOptions } from './observability/options.js';
export type { MeterProviderLike, TracerProviderLike } from './observability/otel-shapes.js';
export type { PrometheusRegistryLike } from './observability/prometheus-shapes.js';

// Model matrix and the per-model rules (temperature, thinking, caching).
export * from './models/catalog.js';
export {
  checkModelRules,
  enforceModelRules,
  findRuleViolations,
  WHITESPACE_STOP_SEQUENCE_MESSAGE,
} from './models/enforce-model-rules.js';
export type { RuleInput, RuleName, RuleViolation, EnforceOptions } from './models/enforce-model-rules.js';

// Validators (zod) of both interfaces.
export * from './schemas/index.js';
// The request bounds, checked before the validators (what one body may hold).
export { checkRequestBounds, type BoundedInterface } from './bounds/check-request-bounds.js';
export { describeBoundViolation, requestBoundsError } from './bounds/request-bounds-error.js';
export type { CheckedBound, RequestBoundViolation } from './bounds/walk-bounded-body.js';

// Authentication.
export { readCredentials, readBearerToken } from './auth/read-credentials.js';
export { createKeyVerifier } from './auth/verify-key.js';
export type { AuthOptions, KeysAuthOptions, StaticKey, VerifyKey } from './auth/verify-key.js';

// Limits and budgets.
export { memoryLimitStore } from './limits/memory-limit-store.js';
export type { MemoryLimitStoreOptions } from './limits/memory-limit-store.js';
export { redisLimitStore } from './limits/redis-limit-store.js';
export type { IoRedisLike, NodeRedisLike, RedisLimitStoreOptions } from './limits/redis-limit-store.js';
export type * from './limits/limit-options.js';
export type * from './limits/limit-store.js';

// Stored responses (previous_response_id, item_reference, GET /v1/responses/{id}).
export { memoryResponseStore } from './responses/memory-response-store.js';
export type { MemoryResponseStoreOptions, RedisResponseStoreOptions } from './responses/response-store-options.js';
export { redisResponseStore } from './responses/redis-response-store.js';
export type { ChainLink, FoundItems, GetItemsOptions, ResponseItem, ResponseStore, StoredResponse } from './responses/response-store.js';
export type { CachedAnswer, CacheResult } from './cache/cache-types.js';
export type { ResponsesOptions } from './responses/responses-options.js';

// The response cache: its options and stores.
export type { CacheOptions, CacheScope } from './cache/cache-options.js';
export { memoryResponseCache } from './cache/memory-response-cache.js';
export { redisResponseCache } from './cache/redis-response-cache.js';
export type { MemoryResponseCacheOptions, RedisResponseCacheOptions } from './cache/response-cache-options.js';
export type { CacheFillStoreOptions, CacheLookup, CacheLookupOptions, ResponseCacheStore } from './cache/cache-types.js';

// Upstreams and routing.
export type * from './upstreams/upstream.js';
export { openAICompatible } from './upstreams/chat-upstream.js';
export type { OpenAICompatibleOptions } from './upstreams/openai-compatible-options.js';
export { messagesUpstream, DEFAULT_ANTHROPIC_VERSION } from './upstreams/messages-upstream.js';
export { azureOpenAI, AZURE_OPENAI_PROVIDER } from './upstreams/azure/azure-openai.js';
export type { AzureOpenAIOptions } from './upstreams/azure/azure-openai-options.js';
export type { AzureDeployment } from './upstreams/azure/azure-url.js';
export type { MessagesUpstreamOptions } from './upstreams/messages-upstream-options.js';
export { bedrockUpstream } from './upstreams/bedrock/bedrock-upstream.js';
export type { BedrockUpstreamOptions } from './upstreams/bedrock/bedrock-upstream-options.js';
export type { AwsCredentials, AwsCredentialProvider } from './upstreams/bedrock/aws-credentials.js';
export { vertexUpstream } from './upstreams/vertex/vertex-upstream.js';
export type { VertexUpstreamOptions } from './upstreams/vertex/vertex-upstream-options.js';
export type { GoogleAuthLike, VertexToken, VertexTokenProvider } from './upstreams/vertex/vertex-auth.js';
export { geminiUpstream } from './upstreams/gemini/gemini-upstream.js';
export type { GeminiUpstreamOptions, GeminiVertexOptions } from './upstreams/gemini/gemini-upstream-options.js';
export type { UpstreamTimeouts, UpstreamPoolOptions } from './upstreams/upstream-transport-options.js';
export { createRouter } from './routing/routes.js';
export type { Route, ModelMatcher, ModelRename, FallbackTarget, ResolvedRoute, Router } from './routing/routes.js';
export type { DeploymentTarget, DeploymentsRoute, SingleUpstreamRoute, RouteTarget } from './routing/routes.js';
export type { RouteStrategy } from './routing/strategies.js';
export type { BetaOptions, BetaPolicy } from './vendor-features/beta-policy.js';
export type { AffinityOption, AffinityOptions } from './routing/affinity.js';
export type { RouterOptions } from './routing/balancer.js';
export { memoryHealthStore, type MemoryHealthStoreOptions } from './routing/memory-health-store.js';
export { redisHealthStore, type RedisHealthStoreOptions } from './routing/redis-health-store.js';
export type { HealthStore, SharedCooldown } from './routing/health-store.js';
export type { CooldownOptions, CoolingCause, TargetState } from './routing/health.js';
export type { RoutingOptions } from './routing/routing-options.js';
export type { WhenAllCooling } from './routing/target-gate.js';
export { upstreamFileStore } from './files/upstream-file-store.js';
export type * from './files/file-store.js';
export type { FileSharing, FilesOption, FilesOptions } from './files/files-options.js';
export { SIMULATED_HEADER, DID_YOU_MEAN_HEADER } from './upstreams/simulated-headers.js';
export { MAX_MODELGATE_HOPS } from './upstreams/via-hops.js';

// Translation between the two interfaces (both directions). `StopReason` and
// `FinishReason` are the schemas' types; the translators use the same values.
export {
  DEFAULT_MAX_TOKENS,
  DEFAULT_REASONING_BUDGETS,
  JSON_OBJECT_INSTRUCTION,
  JSON_TOOL_NAME,
  chatToMessagesRequest,
  chatToMessagesResponse,
  createChatToMessagesStream,
  createMessagesToChatStream,
  mapFinishReason,
  mapStopReason,
  messagesToChatRequest,
  messagesToChatResponse,
} from './translate/index.js';
export type {
  ChatToMessagesRequestOptions,
  ChatToMessagesRequestResult,
  ChatToMessagesResponseOptions,
  ChatToMessagesStreamOptions,
  JsonMode,
  MessagesToChatRequestOptions,
  MessagesToChatRequestResult,
  MessagesToChatResponseOptions,
  MessagesToChatStreamOptions,
  ReasoningBudgets,
  ReasoningEffort,
} from './translate/index.js';

// SSE helpers.
export { parseSse } from './sse/parse-sse.js';
export type { SseEvent } from './sse/parse-sse.js';
export type { StreamTransform } from './sse/relay-stream.js';

// Guards: your code on the traffic of every interface (docs/guards.md).
export { DEFAULT_GUARD_ON_ERROR, DEFAULT_GUARD_TIMEOUT_MS, DEFAULT_HOLDBACK_CHARS } from './guards/guard-defaults.js';
export { denyList, type DenyListOptions } from './guards/builtin/deny-list.js';
export { piiRedactor, type PiiRedactorOptions } from './guards/builtin/pii-redactor.js';
export type {
  Guard,
  GuardContext,
  GuardDecision,
  GuardErrorPolicy,
  GuardInputView,
  GuardInterface,
  GuardMessage,
  GuardOutputView,
  GuardRecord,
  GuardTool,
  GuardToolResult,
  Holdback,
  InputDecision,
  OutputChannel,
  OutputDecision,
  SpanReplacement,
  TextPart,
  TextReplacement,
} from './guards/guard-types.js';
