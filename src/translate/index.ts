/**
 * Translation between the chat-completions and messages formats, both
 * directions, for requests, responses and streams. The field-by-field
 * mapping is in the README, section "Chat ⇄ messages translation". A
 * Responses request becomes a chat request (`responsesToChatRequest`), which
 * then goes the chat way.
 */
export {
  DEFAULT_MAX_TOKENS,
  chatToMessagesRequest,
  type ChatToMessagesRequestOptions,
  type ChatToMessagesRequestResult,
} from './chat-to-messages-request.js';
export { messagesToChatResponse, type ChatThinkingBlock, type MessagesToChatResponseOptions } from './messages-to-chat-response.js';
export { createMessagesToChatStream, type MessagesToChatStreamOptions } from './messages-to-chat-stream.js';
export { messagesToChatRequest, type MessagesToChatRequestOptions, type MessagesToChatRequestResult } from './messages-to-chat-request.js';
export { chatToMessagesResponse, type ChatToMessagesResponseOptions } from './chat-to-messages-response.js';
export { createChatToMessagesStream, type ChatToMessagesStreamOptions } from './chat-to-messages-stream.js';
export { finishReasonOf, mapFinishReason, mapStopReason, type FinishReason, type StopReason } from './map-finish-reason.js';
export { chatUsageToMessages, messagesUsageToChat } from './map-usage.js';
export {
  DEFAULT_REASONING_BUDGETS,
  MIN_THINKING_BUDGET,
  type ReasoningBudgets,
  type ReasoningEffort,
} from '../models/thinking-budgets.js';
export { JSON_OBJECT_INSTRUCTION, JSON_PREFILL, JSON_TOOL_NAME, type JsonMode } from './map-response-format.js';
export type { SseEvent, StreamTransform, TextStreamTransform } from './stream-transform.js';
export {
  inputItemsOf,
  responsesToChatRequest,
  type ResponsesToChat,
  type ResponsesToChatOptions,
} from './responses-to-chat-request.js';
export { CUSTOM_TOOL_PARAMETERS, customToolInputOf, type BuiltInToolsPolicy } from './convert-responses-tools.js';
export { lacksRequiredThinking } from './lacks-required-thinking.js';
