/**
 * A chat completion → a Response (the answer to a Responses request served
 * through the chat pivot; a messages upstream's answer is translated to chat
 * first).
 *
 * | chat `choices[0].message` | Response `output` |
 * |---|---|
 * | `thinking_blocks` (extension) | one `reasoning` item per block, first: summary = the thinking text (redacted: none), `encrypted_content` = the sealed block |
 * | `reasoning_content` without `thinking_blocks` | one `reasoning` item, `encrypted_content: null` (unsigned) |
 * | `content`, `refusal` | one `message` item: `output_text` and/or `refusal` parts |
 * | `tool_calls` | `function_call` items (`call_id` = the chat id); calls of custom tools → `custom_tool_call` |
 * | `finish_reason` `length` / `content_filter` | `status: 'incomplete'` with `incomplete_details` |
 * | `usage` | `usage`, every key present |
 *
 * An answer with nothing in it still gets a message with empty text, so
 * `output` is never empty.
 */
import { newCustomToolCallItemId, newFunctionCallItemId, newMessageItemId, newReasoningItemId } from '../responses/response-ids.js';
import {
  type ResponseMessageItem,
  type ResponseObject,
  type ResponseOutputItem,
  buildResponseObject,
  chatUsageToResponses,
  incompleteDetailsOf,
} from '../responses/response-object.js';
import type { ChatCompletion } from '../schemas/index.js';
import { type ResponseAnswerOptions, customToolInput, nowSeconds, readThinkingBlocks, reasoningItem } from './responses-output.js';

/**
 * Translates a (non-streamed) chat completion into the stored view of the
 * Response: reasoning items keep `encrypted_content`; answer the client
 * with `clientView(response, options.includeEncrypted)`.
 */
export function chatToResponsesResponse(chat: ChatCompletion, options: ResponseAnswerOptions): ResponseObject {
  const choice = chat.choices[0];
  const message = choice?.message;
  const output: ResponseOutputItem[] = [];

  const blocks = readThinkingBlocks(message?.thinking_blocks);
  for (const block of blocks) {
    const text = block.type === 'thinking' ? block.thinking : '';
    output.push(reasoningItem(newReasoningItemId(), text, options.seal([block])));
  }
  if (blocks.length === 0 && message?.reasoning_content) {
    output.push(reasoningItem(newReasoningItemId(), message.reasoning_content, null));
  }

  const incomplete = incompleteDetailsOf(choice?.finish_reason);
  const content: ResponseMessageItem['content'] = [];
  if (message?.content) content.push({ type: 'output_text', text: message.content, annotations: [], logprobs: [] });
  if (message?.refusal) content.push({ type: 'refusal', refusal: message.refusal });
  const calls = message?.tool_calls ?? [];
  if (content.length > 0 || (calls.length === 0 && output.length === 0)) {
    if (content.length === 0) content.push({ type: 'output_text', text: '', annotations: [], logprobs: [] });
    // A truncated answer's text is the part cut short.
    const status = incomplete && calls.length === 0 ? 'incomplete' : 'completed';
    output.push({ id: newMessageItemId(), type: 'message', status, role: 'assistant', content });
  }

  for (const call of calls) {
    const { name, arguments: args } = call.function;
    if (options.customTools.has(name)) {
      output.push({ id: newCustomToolCallItemId(), type: 'custom_tool_call', status: 'completed', call_id: call.id, name, input: customToolInput(args) });
    } else {
      output.push({ id: newFunctionCallItemId(), type: 'function_call', status: 'completed', call_id: call.id, name, arguments: args });
    }
  }

  return buildResponseObject(options, {
    status: incomplete ? 'incomplete' : 'completed',
    output,
    usage: chatUsageToResponses(chat.usage),
    completedAt: incomplete ? null : (options.now ?? nowSeconds)(),
    incompleteDetails: incomplete,
  });
}
