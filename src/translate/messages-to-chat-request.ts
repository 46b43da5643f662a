/**
 * A messages request → a chat-completions request (the reverse direction,
 * opt-in per route: `/v1/messages` served by a chat upstream).
 *
 * | messages | chat |
 * |---|---|
 * | `system`, `messages` | `messages` (`convertMessagesTurns`) |
 * | `max_tokens` | `max_completion_tokens` (or `max_tokens`, option `maxTokensField`) |
 * | `temperature`, `top_p` | same |
 * | `stop_sequences` | `stop` |
 * | `metadata.user_id` | `user` |
 * | `tools` (custom) | `{type:'function', function:{name, description, parameters: input_schema, strict}}` |
 * | `tool_choice` `auto` / `any` / `tool` / `none` | `'auto'` / `'required'` / `{type:'function', function:{name}}` / `'none'` |
 * | `disable_parallel_tool_use: true` | `parallel_tool_calls: false` |
 * | `thinking` `enabled` | `reasoning_effort` by budget: ≤ 2048 `low`, ≤ 8192 `medium`, else `high` |
 * | `thinking` `adaptive` / `between_tools` | `reasoning_effort: 'medium'` (`output_config.effort` wins when set) |
 * | `output_config.format` (json_schema) | `response_format: {type:'json_schema', json_schema:{name:'response', schema, strict:true}}` |
 * | `service_tier` `auto` / `standard_only` | `auto` / `default` |
 * | `stream` | `stream` + `stream_options.include_usage` (the vendor stream ends with usage) |
 *
 * Always dropped with a warning: `cache_control` (chat upstreams cache
 * automatically), `thinking.display`, `eager_input_streaming`. Rejected, or
 * dropped with a warning under `dropUnsupportedParams`: `top_k`, server
 * tools, `input_examples`, `defer_loading`, `container`, `inference_geo`,
 * `speed` and any other field.
 */
import type { ChatCompletionRequest } from '../schemas/chat.js';
import type { MessagesRequest, MessagesTool, ThinkingConfig } from '../schemas/messages.js';
import { convertMessagesTurns } from './convert-messages-turns.js';
import { type ParamPolicy, createParamPolicy } from './param-policy.js';

/** Options of {@link messagesToChatRequest}. */
export interface MessagesToChatRequestOptions {
  /** The model id to send upstream. */
  upstreamModel: string;
  /** Drop fields without an equivalent (with a warning) instead of a 400. Default false. */
  dropUnsupportedParams?: boolean;
  /**
   * Which chat field carries `max_tokens`. Default `'max_completion_tokens'`
   * (current chat models reject `max_tokens`); use `'max_tokens'` for older
   * chat-compatible servers.
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

/** Result of {@link messagesToChatRequest}. */
export interface MessagesToChatRequestResult {
  request: ChatCompletionRequest;
  warnings: string[];
}

const HANDLED = new Set([
  'model', 'max_tokens', 'messages', 'system', 'temperature', 'top_p', 'stop_sequences', 'stream', 'metadata', 'tools',
  'tool_choice', 'thinking', 'output_config', 'service_tier', 'cache_control',
]);

type ChatTool = NonNullable<ChatCompletionRequest['tools']>[number];

function convertTools(tools: readonly MessagesTool[], policy: ParamPolicy): ChatTool[] {
  const out: ChatTool[] = [];
  tools.forEach((tool, i) => {
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      policy.unsupported(`tools.${i}`, `on the chat interface (server tool \`${tool.type}\`)`);
      return;
    }
    const custom = tool as Extract<MessagesTool, { input_schema: unknown }>;
    if (custom.cache_control) policy.warn('Dropped `cache_control`: chat upstreams cache prompts automatically.');
    if (custom.eager_input_streaming !== undefined && custom.eager_input_streaming !== null) {
      policy.warn('Dropped `eager_input_streaming`: chat upstreams stream tool arguments as they come.');
    }
    if (custom.input_examples !== undefined) policy.unsupported(`tools.${i}.input_examples`, 'on the chat interface');
    if (custom.defer_loading !== undefined) policy.unsupported(`tools.${i}.defer_loading`, 'on the chat interface');
    const fn: Extract<ChatTool, { type: 'function' }>['function'] = { name: custom.name, parameters: custom.input_schema };
    if (custom.description !== undefined) fn.description = custom.description;
    if (custom.strict !== undefined) fn.strict = custom.strict;
    out.push({ type: 'function', function: fn });
  });
  return out;
}

const EFFORTS = new Set(['low', 'medium', 'high']);

function effortOf(thinking: ThinkingConfig | undefined, policy: ParamPolicy): string | undefined {
  if (!thinking) return undefined;
  if ('display' in thinking && thinking.display) policy.warn('Dropped `thinking.display`: chat upstreams decide how reasoning is shown.');
  switch (thinking.type) {
    case 'disabled':
      return undefined;
    case 'enabled':
      return thinking.budget_tokens <= 2048 ? 'low' : thinking.budget_tokens <= 8192 ? 'medium' : 'high';
    case 'adaptive':
    case 'between_tools':
      return 'medium';
    default: {
      const unknown: never = thinking;
      return unknown;
    }
  }
}

/**
 * Translates a messages request into a chat-completions request for
 * `upstreamModel`.
 *
 * @throws GatewayError `UNSUPPORTED_PARAMETER` (HTTP 400, `param` set) for
 *   fields without an equivalent, unless dropped.
 */
export function messagesToChatRequest(request: MessagesRequest, options: MessagesToChatRequestOptions): MessagesToChatRequestResult {
  const policy = createParamPolicy({ dropUnsupportedParams: options.dropUnsupportedParams });
  for (const [key, value] of Object.entries(request)) {
    if (!HANDLED.has(key) && value !== undefined && value !== null) policy.unsupported(key, 'on the chat interface');
  }
  const out: ChatCompletionRequest = { model: options.upstreamModel, messages: convertMessagesTurns(request, policy) };
  out[options.maxTokensField ?? 'max_completion_tokens'] = request.max_tokens;
  if (request.temperature !== undefined) out.temperature = request.temperature;
  if (request.top_p !== undefined) out.top_p = request.top_p;
  if (request.stop_sequences && request.stop_sequences.length > 0) out.stop = request.stop_sequences;
  const userId = request.metadata?.user_id;
  if (typeof userId === 'string') out.user = userId;

  const tools = request.tools ? convertTools(request.tools, policy) : [];
  if (tools.length > 0) out.tools = tools;
  const choice = request.tool_choice;
  if (choice) {
    switch (choice.type) {
      case 'auto':
        out.tool_choice = 'auto';
        break;
      case 'any':
        out.tool_choice = 'required';
        break;
      case 'tool':
        out.tool_choice = { type: 'function', function: { name: choice.name } };
        break;
      case 'none':
        out.tool_choice = 'none';
        break;
      default: {
        const unknown: never = choice;
        void unknown;
      }
    }
    if ('disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true && tools.length > 0) {
      out.parallel_tool_calls = false;
    }
  }

  let effort = effortOf(request.thinking, policy);
  const config = request.output_config;
  if (config?.effort) {
    if (EFFORTS.has(config.effort)) effort = config.effort;
    else policy.unsupported('output_config.effort', `with value "${config.effort}" on the chat interface (use low, medium or high)`);
  }
  if (effort) out.reasoning_effort = effort;
  if (config?.format) {
    out.response_format = { type: 'json_schema', json_schema: { name: 'response', schema: config.format.schema, strict: true } };
  }
  if (request.service_tier) out.service_tier = request.service_tier === 'standard_only' ? 'default' : 'auto';
  if (request.cache_control) policy.warn('Dropped `cache_control`: chat upstreams cache prompts automatically.');
  if (request.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  return { request: out, warnings: policy.warnings };
}
