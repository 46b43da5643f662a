/**
 * Runs the output guards of a request on the answer of the caller's
 * interface: a whole answer in place, before it is stored or sent; a
 * stream as the client gets it.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import { type AnswerGuardOutcome, hasOutputGuards } from '../guards/answer-slots.js';
import { guardChatAnswer, guardMessagesAnswer, guardResponsesAnswer } from '../guards/guard-answers.js';
import type { Guard, GuardInterface } from '../guards/guard-types.js';
import { createChatStreamEditor } from '../guards/stream/chat-stream-editor.js';
import { guardEventStream } from '../guards/stream/guard-event-stream.js';
import { createMessagesStreamEditor } from '../guards/stream/messages-stream-editor.js';
import { createResponsesStreamEditor, type ResponsesStreamEditor } from '../guards/stream/responses-stream-editor.js';
import type { GatewayResponse } from '../types.js';
import { observeGuardRecords } from '../observability/guard-observation.js';

const GUARD_ANSWER = { chat: guardChatAnswer, messages: guardMessagesAnswer, responses: guardResponsesAnswer } as const;

/** Guards `answer` (an answer of interface `api`, which this call owns) for the request of `ctx`. */
export function guardAnswer(ctx: GatewayContext, guards: readonly Guard[], api: GuardInterface, answer: Record<string, unknown>): Promise<AnswerGuardOutcome> {
  const model = typeof ctx.body?.model === 'string' ? ctx.body.model : '';
  return GUARD_ANSWER[api](answer, guards, { interface: api, model, principal: ctx.principal?.id, signal: ctx.request.signal }).then((outcome) => {
    observeGuardRecords(ctx.observer, outcome.records);
    return outcome;
  });
}

const STREAM_EDITORS = { chat: createChatStreamEditor, messages: createMessagesStreamEditor } as const;

/**
 * `response` with its event stream (of interface `api`) passed through the
 * output guards; returned as it is when it is no stream, or when no guard
 * reads the text of answers.
 */
export function guardStream(ctx: GatewayContext, guards: readonly Guard[], api: 'chat' | 'messages', response: GatewayResponse): GatewayResponse {
  if (response.type !== 'sse' || !hasOutputGuards(guards)) return response;
  const model = typeof ctx.body?.model === 'string' ? ctx.body.model : '';
  const info = { interface: api, model, principal: ctx.principal?.id, signal: ctx.request.signal };
  const editor = STREAM_EDITORS[api](guards, info, (records) => observeGuardRecords(ctx.observer, records));
  if (editor) response.body = guardEventStream(response.body, editor);
  return response;
}

/** The Responses stream editor of this request, or undefined when no guard reads the text of answers. */
export function responsesStreamEditor(ctx: GatewayContext, guards: readonly Guard[]): ResponsesStreamEditor | undefined {
  if (!hasOutputGuards(guards)) return undefined;
  const model = typeof ctx.body?.model === 'string' ? ctx.body.model : '';
  return createResponsesStreamEditor(guards, { interface: 'responses', model, principal: ctx.principal?.id, signal: ctx.request.signal }, (records) => observeGuardRecords(ctx.observer, records));
}
