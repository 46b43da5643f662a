/**
 * A messages response → a chat completion (the answer to a chat request
 * served by a messages upstream).
 *
 * | messages | chat |
 * |---|---|
 * | `text` blocks | `message.content` (joined; `null` when there are none) |
 * | `tool_use` blocks | `message.tool_calls` (`arguments` = JSON string of `input`); the forced JSON tool of `json_object` → `content` |
 * | `thinking` blocks | `message.reasoning_content` (joined), never in `content` |
 * | `thinking` / `redacted_thinking` blocks | `message.thinking_blocks` (extension, with signatures, to send back on the next turn) |
 * | `stop_reason` | `finish_reason` (`mapStopReason`) |
 * | `usage` | `usage` (`messagesUsageToChat`) |
 *
 * Server-tool blocks have no chat equivalent and cannot be requested
 * through chat, so they are not expected; if present they are skipped.
 */
import type { ChatCompletion, ChatToolCall, MessagesResponse } from '../schemas/index.js';
import { finishReasonOf } from './map-finish-reason.js';
import { JSON_TOOL_NAME, reattachPrefill } from './map-response-format.js';
import { messagesUsageToChat } from './map-usage.js';

/** Options of {@link messagesToChatResponse}. */
export interface MessagesToChatResponseOptions {
  /** The model id the caller asked for (reported back as `model`). */
  model: string;
  /** Completion id. Default `chatcmpl-<upstream message id>`. */
  id?: string;
  /** Unix seconds. Default now. */
  created?: number;
  /** The prefill `chatToMessagesRequest` returned, to put back in front of the text. */
  jsonPrefill?: string;
}

/** A thinking block as carried in the `thinking_blocks` extension. */
export type ChatThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** Translates a (non-streamed) messages response. */
export function messagesToChatResponse(response: MessagesResponse, options: MessagesToChatResponseOptions): ChatCompletion {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const thinkingBlocks: ChatThinkingBlock[] = [];
  const toolCalls: ChatToolCall[] = [];
  for (const block of response.content) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'thinking':
        reasoning.push(block.thinking);
        thinkingBlocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
        break;
      case 'redacted_thinking':
        thinkingBlocks.push({ type: 'redacted_thinking', data: block.data });
        break;
      case 'tool_use':
        // The forced tool of the `json_object` emulation: its input is the answer.
        if (block.name === JSON_TOOL_NAME) texts.push(JSON.stringify(block.input));
        else toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } });
        break;
      default:
        break;
    }
  }
  let content: string | null = texts.length > 0 ? texts.join('') : null;
  if (content !== null && options.jsonPrefill) content = reattachPrefill(options.jsonPrefill, content);

  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content, refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning.length > 0) message.reasoning_content = reasoning.join('');
  if (thinkingBlocks.length > 0) message.thinking_blocks = thinkingBlocks;

  return {
    id: options.id ?? `chatcmpl-${response.id}`,
    object: 'chat.completion',
    created: options.created ?? Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(response.stop_reason, toolCalls.length) }],
    usage: messagesUsageToChat(response.usage),
  };
}
