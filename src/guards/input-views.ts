/**
 * One entry point for the input view and write-back of any interface, for
 * the runner and the handlers that do not care which interface they serve.
 */
import type { ChatCompletionRequest } from '../schemas/chat-request.js';
import type { MessagesRequest } from '../schemas/messages-request.js';
import type { ResponsesRequest } from '../schemas/responses-request.js';
import { viewOfChat } from './chat-input-view.js';
import type { GuardInterface } from './guard-types.js';
import type { InputViewOptions, InputViewResult } from './input-view-result.js';
import { viewOfMessages } from './messages-input-view.js';
import { viewOfResponses } from './responses-input-view.js';

/** The parsed request body of each interface. */
export interface GuardedBodies {
  chat: ChatCompletionRequest;
  messages: MessagesRequest;
  responses: ResponsesRequest;
}

const VIEWS: { [I in GuardInterface]: (body: GuardedBodies[I], options: InputViewOptions) => InputViewResult } = {
  chat: viewOfChat,
  messages: viewOfMessages,
  responses: viewOfResponses,
};

/** The view of a request `body` of interface `api`, and its text locations. */
export function viewOfRequest<I extends GuardInterface>(api: I, body: GuardedBodies[I], options: InputViewOptions = {}): InputViewResult {
  return (VIEWS[api] as (body: GuardedBodies[I], options: InputViewOptions) => InputViewResult)(body, options);
}
