/**
 * Runs the output guards of a request on a whole answer of the caller's
 * interface, in place, before it is stored or sent.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import type { AnswerGuardOutcome } from '../guards/answer-slots.js';
import { guardChatAnswer, guardMessagesAnswer, guardResponsesAnswer } from '../guards/guard-answers.js';
import type { Guard, GuardInterface } from '../guards/guard-types.js';

const GUARD_ANSWER = { chat: guardChatAnswer, messages: guardMessagesAnswer, responses: guardResponsesAnswer } as const;

/** Guards `answer` (an answer of interface `api`, which this call owns) for the request of `ctx`. */
export function guardAnswer(ctx: GatewayContext, guards: readonly Guard[], api: GuardInterface, answer: Record<string, unknown>): Promise<AnswerGuardOutcome> {
  const model = typeof ctx.body?.model === 'string' ? ctx.body.model : '';
  return GUARD_ANSWER[api](answer, guards, { interface: api, model, principal: ctx.principal?.id, signal: ctx.request.signal });
}
