/**
 * A Responses request → a chat-completions request, the pivot every
 * upstream already serves (chat upstreams take it as is; messages upstreams
 * get it through `chatToMessagesRequest`, earlier thinking included through
 * the `thinking_blocks` extension).
 *
 * | Responses | chat |
 * |---|---|
 * | `instructions` | the first `system` message |
 * | resolved `input` items | `messages` (`convertResponsesItems`) |
 * | `tools`, `tool_choice`, `parallel_tool_calls` | the same fields (`convertResponsesTools`); built-in tools dropped or refused |
 * | `text.format` `json_object` / `json_schema` (flat) | `response_format` (`json_schema` nested) |
 * | `text.verbosity` | `verbosity` |
 * | `reasoning.effort` | `reasoning_effort` (`none` → left out; `max` → `xhigh`, the top level chat knows) |
 * | `max_output_tokens` | `max_completion_tokens` (both count reasoning) |
 * | `temperature`, `top_p`, `user`, `safety_identifier`, `prompt_cache_key`, `service_tier` | the same |
 * | `stream` | `stream`, with `stream_options.include_usage` (the answer needs the usage) |
 *
 * Not sent: `metadata`, `store`, `include`, `previous_response_id` (the
 * caller resolves it into `items`), `reasoning.summary`, `stream_options`
 * and `truncation` (`auto` is ignored with a warning). `top_logprobs` and
 * `max_tool_calls` cannot be applied and are listed in `dropped`.
 *
 * Pure and cheap: nothing is fetched or stored, so the caller may also use
 * the pivot to count tokens.
 */
import type { ChatCompletionRequest, ChatMessage } from '../schemas/chat.js';
import type { ReasoningItem, ResponseInputItem, ResponsesRequest } from '../schemas/responses.js';
import { convertResponsesItems } from './convert-responses-items.js';
import { type BuiltInToolsPolicy, convertResponsesTools } from './convert-responses-tools.js';
import type { ChatThinkingBlock } from './messages-to-chat-response.js';
import { invalidParam } from './param-policy.js';

/** Options of {@link responsesToChatRequest}. */
export interface ResponsesToChatOptions {
  /**
   * The thinking blocks to restore in front of the assistant turn a
   * reasoning item belongs to; `undefined` when it cannot be restored (the
   * item is then left out).
   */
  restoreReasoning(item: ReasoningItem): ChatThinkingBlock[] | undefined;
  /**
   * Built-in tools (`web_search`, `file_search`, `code_interpreter`,
   * `computer*`, `image_generation`, `mcp`, `local_shell`, `shell`,
   * `tool_search`, `namespace`, …), which no upstream here runs: `'drop'`
   * them (listed in `dropped`) or `'reject'` the request with a 400 naming
   * `tools.<i>`.
   */
  builtInTools: BuiltInToolsPolicy;
}

/** Result of {@link responsesToChatRequest}. */
export interface ResponsesToChat {
  /** The chat pivot; assistant messages may carry `thinking_blocks`. */
  request: ChatCompletionRequest;
  /** What was not applied, for `x-modelgate-dropped-params`: `tools.2 (web_search)`, `input.5 (web_search_call)`, `top_logprobs`, … */
  dropped: string[];
  /** Notes on the translation (reasoning left out, `truncation` ignored). */
  warnings: string[];
  /** Names of the `custom` tools, sent as functions: their calls go back as `custom_tool_call` items. */
  customTools: string[];
}

/**
 * The request's own `input` as items: a string is one user message, an
 * absent `input` none. (Items of a `previous_response_id` go in front; the
 * caller adds them.)
 */
export function inputItemsOf(body: Pick<ResponsesRequest, 'input'>): ResponseInputItem[] {
  const { input } = body;
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return input;
}

function present<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

function responseFormatOf(format: NonNullable<ResponsesRequest['text']>['format']): ChatCompletionRequest['response_format'] {
  if (!present(format)) return undefined;
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const jsonSchema: { name: string; schema: Record<string, unknown>; strict?: boolean; description?: string } = {
        name: format.name,
        schema: format.schema,
      };
      if (present(format.strict)) jsonSchema.strict = format.strict;
      if (present(format.description)) jsonSchema.description = format.description;
      return { type: 'json_schema', json_schema: jsonSchema };
    }
    default: {
      const unknown: never = format;
      return unknown;
    }
  }
}

function reasoningEffortOf(body: ResponsesRequest, warnings: string[]): string | undefined {
  const effort = body.reasoning?.effort;
  if (!present(effort) || effort === 'none') return undefined;
  if (effort === 'max') {
    warnings.push('`reasoning.effort` "max" is sent as "xhigh", the highest level the chat pivot takes.');
    return 'xhigh';
  }
  return effort;
}

/**
 * Translates a validated Responses body whose input (earlier turns first,
 * `item_reference`s resolved) is `items`.
 *
 * @throws GatewayError `INVALID_REQUEST` or `UNSUPPORTED_PARAMETER` (HTTP
 *   400, `param` naming the field, e.g. `input.4.call_id`) for a client
 *   mistake or a part that cannot be sent.
 *
 * @example
 * const body = parseRequest(responsesRequestSchema, req.body);
 * const { request, dropped } = responsesToChatRequest(body, inputItemsOf(body), {
 *   restoreReasoning: () => undefined,
 *   builtInTools: 'drop',
 * });
 */
export function responsesToChatRequest(
  body: ResponsesRequest,
  items: readonly ResponseInputItem[],
  options: ResponsesToChatOptions,
): ResponsesToChat {
  const dropped: string[] = [];
  const warnings: string[] = [];
  const tools = convertResponsesTools(body, { builtInTools: options.builtInTools, dropped });
  const conversation = convertResponsesItems(items, { restoreReasoning: options.restoreReasoning, dropped, warnings });
  if (!conversation.some((message) => message.role !== 'system')) {
    throw invalidParam(
      'input',
      items.length === 0
        ? '`input` is required: send the conversation as `input` (a string or a list of items), or continue one with `previous_response_id`.'
        : `\`input\` has no message left to send: add a user message.${dropped.some((name) => name.startsWith('input.')) ? ` Dropped as no upstream here can use them: ${dropped.filter((name) => name.startsWith('input.')).join(', ')}.` : ''}`,
    );
  }

  const messages: ChatMessage[] = [];
  if (present(body.instructions) && body.instructions !== '') messages.push({ role: 'system', content: body.instructions });
  messages.push(...conversation);

  const request: ChatCompletionRequest = { model: body.model, messages };
  if (tools.tools) request.tools = tools.tools;
  if (tools.tool_choice !== undefined) request.tool_choice = tools.tool_choice;
  if (tools.parallel_tool_calls !== undefined) request.parallel_tool_calls = tools.parallel_tool_calls;
  const responseFormat = responseFormatOf(body.text?.format);
  if (responseFormat) request.response_format = responseFormat;
  if (present(body.text?.verbosity)) request.verbosity = body.text.verbosity;
  const effort = reasoningEffortOf(body, warnings);
  if (effort !== undefined) request.reasoning_effort = effort;
  if (present(body.max_output_tokens)) request.max_completion_tokens = body.max_output_tokens;
  if (present(body.temperature)) request.temperature = body.temperature;
  if (present(body.top_p)) request.top_p = body.top_p;
  if (present(body.user)) request.user = body.user;
  if (present(body.safety_identifier)) request.safety_identifier = body.safety_identifier;
  if (present(body.prompt_cache_key)) request.prompt_cache_key = body.prompt_cache_key;
  if (present(body.service_tier)) request.service_tier = body.service_tier;
  if (body.stream === true) {
    request.stream = true;
    request.stream_options = { include_usage: true };
  }

  if (present(body.top_logprobs) && body.top_logprobs > 0) dropped.push('top_logprobs');
  if (present(body.max_tool_calls)) dropped.push('max_tool_calls');
  if (body.truncation === 'auto') {
    warnings.push('`truncation: "auto"` is ignored: a conversation longer than the model\'s context fails instead of being shortened.');
  }
  return { request, dropped, warnings, customTools: tools.customTools };
}
