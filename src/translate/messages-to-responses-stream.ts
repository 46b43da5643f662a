/**
 * A messages event stream → a Responses event stream, through the chat
 * pivot: `createMessagesToChatStream` (with usage) chained into
 * `createChatToResponsesStream`. Signed thinking reaches the Responses
 * translator as the chat `thinking_blocks` extension and becomes sealed
 * `encrypted_content`.
 */
import type { ResponseObject } from '../responses/response-object.js';
import { ChainedTransform } from './chain-transforms.js';
import { type ResponsesStreamTransform, createChatToResponsesStream } from './chat-to-responses-stream.js';
import { createMessagesToChatStream } from './messages-to-chat-stream.js';
import type { ResponseAnswerOptions } from './responses-output.js';

/** Options of {@link createMessagesToResponsesStream}. */
export interface MessagesToResponsesOptions extends ResponseAnswerOptions {
  /** The prefill `chatToMessagesRequest` returned, put back in front of the first text. */
  jsonPrefill?: string;
}

class MessagesToResponsesStream extends ChainedTransform<ResponsesStreamTransform> implements ResponsesStreamTransform {
  get final(): ResponseObject | undefined {
    return this.last.final;
  }
}

/** Creates the translator for one streamed Response served by a messages upstream. */
export function createMessagesToResponsesStream(options: MessagesToResponsesOptions): ResponsesStreamTransform {
  const toChat = createMessagesToChatStream({
    model: options.model,
    id: `chatcmpl-${options.id}`,
    created: options.createdAt,
    includeUsage: true,
    ...(options.jsonPrefill === undefined ? {} : { jsonPrefill: options.jsonPrefill }),
  });
  return new MessagesToResponsesStream(toChat, createChatToResponsesStream(options));
}
