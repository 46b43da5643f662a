/**
 * The token counter shared by the gateway's local `count_tokens`, the
 * simulator's usage figures and its `count_tokens` endpoint. All functions
 * are pure; the tokenizer (gpt-tokenizer, `cl100k_base`) loads once.
 *
 * @example
 * countMessagesRequestTokens({ messages: [{ role: 'user', content: 'Hello' }] }); // 7
 */
export { countTextTokens } from './tokenizer.js';
export { countMessagesRequestTokens, measureMessagesPrompt } from './count-messages-tokens.js';
export type { CacheMarker, MessagesTokenInput, PromptSegment } from './count-messages-tokens.js';
export { countChatRequestTokens } from './count-chat-tokens.js';
export { countResponsesRequestTokens } from './count-responses-tokens.js';
export type { ChatTokenInput } from './count-chat-tokens.js';
export { imageTokensForSize, countBase64ImageTokens } from './count-image-tokens.js';
export { countBase64PdfTokens, countPdfPages } from './count-document-tokens.js';
