/**
 * The token counter shared by the gateway's local `count_tokens`, the
 * limits' estimates, the simulator's usage figures and its `count_tokens`
 * endpoint. The functions keep no state between calls (a request's budget
 * lives in the `TokenCounter` it is given); the tokenizer (gpt-tokenizer,
 * `cl100k_base`) loads once, with its merge cache set to
 * `MERGE_CACHE_ENTRIES` for the whole process. Each call counts the first
 * {@link EXACT_CHARACTERS_PER_REQUEST} characters of its text exactly and
 * estimates the rest from its size (`token-counter.ts`), so no input blocks
 * the event loop.
 *
 * @example
 * countMessagesRequestTokens({ messages: [{ role: 'user', content: 'Hello' }] }); // 7
 */
export { countTextTokens, EXACT_CHARACTERS_PER_REQUEST, TokenCounter } from './token-counter.js';
export { countMessagesRequestTokens, measureMessagesPrompt } from './count-messages-tokens.js';
export type { CacheMarker, MessagesTokenInput, PromptSegment } from './count-messages-tokens.js';
export { countChatRequestTokens } from './count-chat-tokens.js';
export { countResponsesRequestTokens } from './count-responses-tokens.js';
export { countEmbeddingsInputTokens } from './count-embeddings-tokens.js';
export type { ChatTokenInput } from './count-chat-tokens.js';
export { imageTokensForSize, countBase64ImageTokens } from './count-image-tokens.js';
export { countBase64PdfTokens, countPdfPages } from './count-document-tokens.js';
