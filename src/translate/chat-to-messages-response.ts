/**
 * A chat completion → a messages response (the reverse direction).
 *
 * | chat | messages |
 * |---|---|
 * | `thinking_blocks` (extension) or `reasoning_content` | `thinking` blocks first (`signature: ''` when the upstream gave none) |
 * | `content` / `refusal` | one `text` block (omitted when empty) |
 * | `tool_calls` | `tool_use` blocks (`input` parsed from `arguments`) |
 * | `finish_reason` | `stop_reason` (`mapFinishReason`; a refusal → `refusal`) |
 * | `usage` | `usage` (`chatUsageToMessages`) |
 */
import { GatewayError } from '../errors.js';
import type { ChatCompletion, MessagesResponse, MessagesResponseBlock } from '../schemas/index.js';
import { mapFinishReason } from './map-finish-reason.js';
import { chatUsageToMessages } from './map-usage.js';

/** Options of {@link chatToMessagesResponse}. */
export interface ChatToMessagesResponseOptions {
  /** The model id the caller asked for. */
  model: string;
  /** Message id. Default `msg_<completion id>`. */
  id?: string;
}

/**
 * Parses an upstream tool call's `arguments`. A chat upstream that sends
 * arguments that are not a JSON object (a cut-off reply) cannot be expressed
 * as a `tool_use` input: that is an upstream failure, not a client error.
 * @internal
 */
export function parseToolInput(args: string, name: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new GatewayError('UPSTREAM_ERROR', `The upstream returned arguments for tool "${name}" that are not a JSON object.`);
}

function thinkingBlocksOf(message: ChatCompletion['choices'][number]['message']): MessagesResponseBlock[] {
  const extension = message.thinking_blocks;
  if (Array.isArray(extension)) {
    const blocks: MessagesResponseBlock[] = [];
    for (const item of extension as Record<string, unknown>[]) {
      if (item.type === 'thinking' && typeof item.thinking === 'string') {
        blocks.push({ type: 'thinking', thinking: item.thinking, signature: typeof item.signature === 'string' ? item.signature : '' });
      } else if (item.type === 'redacted_thinking' && typeof item.data === 'string') {
        blocks.push({ type: 'redacted_thinking', data: item.data });
      }
    }
    if (blocks.length > 0) return blocks;
  }
  const reasoning = message.reasoning_content;
  return typeof reasoning === 'string' && reasoning !== '' ? [{ type: 'thinking', thinking: reasoning, signature: '' }] : [];
}

/** Translates a (non-streamed) chat completion; only the first choice is used (the request asked for one). */
export function chatToMessagesResponse(completion: ChatCompletion, options: ChatToMessagesResponseOptions): MessagesResponse {
  const choice = completion.choices[0];
  if (!choice) throw new GatewayError('UPSTREAM_ERROR', 'The upstream returned a completion without choices.');
  const { message } = choice;
  const content = thinkingBlocksOf(message);
  const refusal = typeof message.refusal === 'string' && message.refusal !== '' ? message.refusal : undefined;
  const text = (message.content ?? '') + (refusal ?? '');
  if (text !== '') content.push({ type: 'text', text });
  for (const call of message.tool_calls ?? []) {
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseToolInput(call.function.arguments, call.function.name) });
  }
  return {
    id: options.id ?? `msg_${completion.id}`,
    type: 'message',
    role: 'assistant',
    model: options.model,
    content,
    stop_reason: refusal ? 'refusal' : mapFinishReason(choice.finish_reason),
    stop_sequence: null,
    usage: chatUsageToMessages(completion.usage),
  };
}
