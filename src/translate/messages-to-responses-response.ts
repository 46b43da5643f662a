/**
 * A messages response → a Response, through the chat pivot:
 * `messagesToChatResponse` then `chatToResponsesResponse` (thinking blocks
 * travel as the `thinking_blocks` extension, signatures intact).
 */
import type { ResponseObject } from '../responses/response-object.js';
import type { MessagesResponse } from '../schemas/index.js';
import { chatToResponsesResponse } from './chat-to-responses-response.js';
import { messagesToChatResponse } from './messages-to-chat-response.js';
import type { MessagesToResponsesOptions } from './messages-to-responses-stream.js';

/** Translates a (non-streamed) messages response into the stored view of the Response (see `chatToResponsesResponse`). */
export function messagesToResponsesResponse(response: MessagesResponse, options: MessagesToResponsesOptions): ResponseObject {
  const chat = messagesToChatResponse(response, {
    model: options.model,
    id: `chatcmpl-${options.id}`,
    created: options.createdAt,
    ...(options.jsonPrefill === undefined ? {} : { jsonPrefill: options.jsonPrefill }),
  });
  return chatToResponsesResponse(chat, options);
}
