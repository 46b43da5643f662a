/**
 * A chat-completions request → a messages request, so any model behind a
 * messages upstream answers on `/v1/chat/completions`.
 *
 * Field by field (details in the converter each line names, and in
 * the README section "Chat ⇄ messages translation"):
 *
 * | chat | messages |
 * |---|---|
 * | `messages` | `system` + turns (`convertChatMessages`) |
 * | `max_completion_tokens` ?? `max_tokens` | `max_tokens` (default {@link DEFAULT_MAX_TOKENS}) |
 * | `temperature` (0–2) | `temperature` (0–1; above 1 is unsupported) |
 * | `top_p` / `stop` | `top_p` / `stop_sequences` |
 * | `user` (or `safety_identifier`) | `metadata.user_id` |
 * | `tools`, `tool_choice`, `parallel_tool_calls` | `tools`, `tool_choice` (`convertChatTools`) |
 * | `reasoning_effort` | `thinking` (`mapReasoningEffort`) |
 * | `response_format` | `json_object`: instruction + forced JSON tool; `json_schema`: `output_config` (`mapResponseFormat`) |
 * | `service_tier` `auto` / `default` | `auto` / `standard_only` |
 * | `stream` | `stream` (`stream_options` is read by the stream translator) |
 * | `n` | not sent: the gateway fans out `n > 1` |
 * | extensions `top_k`, `thinking`, `cache_control` | passed as is |
 *
 * Default-valued fields with no equivalent (`logprobs: false`,
 * `presence_penalty: 0`, `store: false`, `modalities: ['text']`, …) and
 * `null`s are ignored; `prompt_cache_key` (a caching hint; the vendor caches
 * by `cache_control`) is dropped with a warning; every other field is
 * rejected with a 400 naming it, or dropped with a warning under
 * `dropUnsupportedParams`.
 */
import type { ModelEntry } from '../models/catalog.js';
import type { ChatCompletionRequest } from '../schemas/chat.js';
import { type MessagesRequest, type ThinkingConfig, thinkingConfigSchema } from '../schemas/messages.js';
import { toCacheControl } from './convert-chat-content.js';
import { convertChatMessages } from './convert-chat-messages.js';
import { convertChatTools } from './convert-chat-tools.js';
import { mapReasoningEffort } from './map-reasoning-effort.js';
import { DEFAULT_REASONING_BUDGETS, type ReasoningBudgets } from '../models/thinking-budgets.js';
import { type JsonMode, mapResponseFormat } from './map-response-format.js';
import { createParamPolicy, invalidParam } from './param-policy.js';
import { systemOnChat, wrongInterfaceError } from '../schemas/detect-wrong-interface.js';

/** `max_tokens` sent when the chat request sets no cap (the messages format requires one). */
export const DEFAULT_MAX_TOKENS = 4096;

/** Options of {@link chatToMessagesRequest}. */
export interface ChatToMessagesRequestOptions {
  /** The model's catalog row (the model matrix); `undefined` for a model outside the catalog. */
  model: ModelEntry | undefined;
  /** The model id to send upstream (after route renames). */
  upstreamModel: string;
  /** `max_tokens` when the caller sets none. Default {@link DEFAULT_MAX_TOKENS} (4096). */
  defaultMaxTokens?: number;
  /** Drop fields without an equivalent (with a warning) instead of a 400. Default false. */
  dropUnsupportedParams?: boolean;
  /** Thinking budgets per `reasoning_effort` level. Default {@link DEFAULT_REASONING_BUDGETS}. */
  reasoningBudgets?: Partial<ReasoningBudgets>;
  /** `json_object` emulation. Default `'tool'` (see `mapResponseFormat`). */
  jsonMode?: JsonMode;
}

/** Result of {@link chatToMessagesRequest}. */
export interface ChatToMessagesRequestResult {
  request: MessagesRequest;
  /** One line per dropped field or hint. */
  warnings: string[];
  /**
   * Set when the answer was prefilled (`json_object` with `jsonMode:
   * 'prefill'`): pass it to `messagesToChatResponse` /
   * `createMessagesToChatStream` as `jsonPrefill`. (The default forced JSON
   * tool needs nothing passed: the response translators recognise it.)
   */
  jsonPrefill?: string;
}

/** Fields this translator reads. */
const HANDLED = new Set([
  'model', 'messages', 'temperature', 'top_p', 'top_k', 'max_tokens', 'max_completion_tokens', 'stream',
  'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'n', 'stop', 'user',
  'safety_identifier', 'reasoning_effort', 'thinking', 'service_tier', 'cache_control',
]);

/** Fields without an equivalent that are harmless at these values. */
const IS_DEFAULT: Record<string, (value: unknown) => boolean> = {
  logprobs: (value) => value === false,
  top_logprobs: (value) => value === 0,
  presence_penalty: (value) => value === 0,
  frequency_penalty: (value) => value === 0,
  store: (value) => value === false,
  modalities: (value) => Array.isArray(value) && value.length === 1 && value[0] === 'text',
  logit_bias: (value) => typeof value === 'object' && value !== null && Object.keys(value).length === 0,
  metadata: (value) => typeof value === 'object' && value !== null && Object.keys(value).length === 0,
};

/** Hints with no effect on the answer: always dropped, with a warning. */
const HINTS = new Set(['prompt_cache_key', 'verbosity']);

function present<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

/** The `thinking` extension, checked with the messages schema (it is the vendor's own field). */
function readThinking(value: unknown): ThinkingConfig | undefined {
  if (!present(value)) return undefined;
  const parsed = thinkingConfigSchema.safeParse(value);
  if (!parsed.success) {
    throw invalidParam('thinking', '`thinking` must be {type:"enabled", budget_tokens ≥ 1024}, {type:"adaptive"} or {type:"disabled"}.');
  }
  return parsed.data;
}

/**
 * Translates a chat-completions request into a messages request for
 * `upstreamModel`.
 *
 * @throws GatewayError `UNSUPPORTED_PARAMETER` (a field without an
 *   equivalent, unless dropped) or `INVALID_REQUEST` (malformed input, e.g.
 *   tool call arguments that are not JSON), both HTTP 400 with `param` set.
 */
export function chatToMessagesRequest(
  request: ChatCompletionRequest,
  options: ChatToMessagesRequestOptions,
): ChatToMessagesRequestResult {
  const policy = createParamPolicy({ dropUnsupportedParams: options.dropUnsupportedParams });
  // A messages body's `system` is a mistake of interface, never a field to drop.
  const system = systemOnChat(request);
  if (system) throw wrongInterfaceError(system);
  for (const [key, value] of Object.entries(request)) {
    if (HANDLED.has(key) || !present(value) || IS_DEFAULT[key]?.(value)) continue;
    if (HINTS.has(key)) policy.warn(`Dropped \`${key}\`: it has no effect on the messages interface.`);
    else policy.unsupported(key, 'on the messages interface');
  }

  const converted = convertChatMessages(request.messages, policy);
  const tools = convertChatTools(request, policy);

  const capParam = present(request.max_completion_tokens) ? 'max_completion_tokens' : 'max_tokens';
  const cap = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  const defaultMaxTokens = options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS;
  const explicitThinking = readThinking(request.thinking);
  if (explicitThinking && present(request.reasoning_effort)) {
    throw invalidParam('reasoning_effort', 'Send either `reasoning_effort` or the `thinking` extension, not both.');
  }
  const reasoning = explicitThinking
    ? {
        thinking: explicitThinking,
        maxTokens: cap ?? defaultMaxTokens + (explicitThinking.type === 'enabled' ? explicitThinking.budget_tokens : 0),
      }
    : mapReasoningEffort({
        effort: request.reasoning_effort,
        model: options.model,
        maxTokens: cap,
        maxTokensParam: capParam,
        defaultMaxTokens,
        budgets: { ...DEFAULT_REASONING_BUDGETS, ...options.reasoningBudgets },
        policy,
      });
  const thinkingOn = reasoning.thinking !== undefined && reasoning.thinking.type !== 'disabled';

  const format = mapResponseFormat(request.response_format, {
    system: converted.system,
    messages: converted.messages,
    thinking: thinkingOn,
    tools: tools.tools !== undefined,
    jsonMode: options.jsonMode,
  });

  const out: MessagesRequest = { model: options.upstreamModel, max_tokens: reasoning.maxTokens, messages: format.messages };
  if (format.system.length > 0) out.system = format.system;
  if (format.jsonTool) {
    out.tools = [format.jsonTool.tool];
    out.tool_choice = format.jsonTool.choice;
  } else {
    if (tools.tools) out.tools = tools.tools;
    if (tools.tool_choice) out.tool_choice = tools.tool_choice;
  }
  if (reasoning.thinking) out.thinking = reasoning.thinking;
  if (format.outputConfig) out.output_config = format.outputConfig;

  if (present(request.temperature)) {
    const rejects = options.model !== undefined && options.model.temperature !== 'accepted';
    // Kept for a model that rejects it unless dropping: the model rules answer with the vendor's exact error.
    if (rejects && options.dropUnsupportedParams) policy.unsupported('temperature', `for model "${options.model?.id ?? ''}"`);
    else if (request.temperature > 1) policy.unsupported('temperature', 'above 1 on the messages interface (its range is 0 to 1)');
    else out.temperature = request.temperature;
  }
  if (present(request.top_p)) out.top_p = request.top_p;
  if (typeof request.top_k === 'number') out.top_k = request.top_k;
  if (present(request.stop)) {
    const stops = typeof request.stop === 'string' ? [request.stop] : request.stop;
    if (stops.length > 0) out.stop_sequences = stops;
  }
  const userId = request.user ?? request.safety_identifier;
  if (present(request.user) && present(request.safety_identifier) && request.user !== request.safety_identifier) {
    policy.unsupported('safety_identifier', 'together with a different `user` (both map to metadata.user_id)');
  }
  if (present(userId)) out.metadata = { user_id: userId };
  if (present(request.service_tier)) {
    if (request.service_tier === 'auto') out.service_tier = 'auto';
    else if (request.service_tier === 'default') out.service_tier = 'standard_only';
    else policy.unsupported('service_tier', `with value "${request.service_tier}" on the messages interface`);
  }
  const cacheControl = toCacheControl(request.cache_control, 'cache_control');
  if (cacheControl) out.cache_control = cacheControl;
  if (request.stream === true) out.stream = true;

  const result: ChatToMessagesRequestResult = { request: out, warnings: policy.warnings };
  if (format.jsonPrefill !== undefined) result.jsonPrefill = format.jsonPrefill;
  return result;
}
