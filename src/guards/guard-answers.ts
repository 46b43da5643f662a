/**
 * The output guards on a whole answer of each interface, as the client
 * gets it (after any translation): its texts become slots, rewritten in
 * place; a stop turns the answer into the interface's filtered answer.
 * The usage an answer carries is kept: a blocked call was still made.
 *
 * Read: chat choices' `content` (text), `tool_calls[].function.arguments`
 * (tool_arguments) and `reasoning_content` (reasoning); messages `text`
 * blocks (text); Responses
 * `output_text` parts (text), `function_call` arguments (tool_arguments)
 * and reasoning summaries (reasoning). Not seen: messages `tool_use`
 * input (an object, not text) and `thinking` blocks (signed: a rewrite
 * would break the signature the next turn sends back).
 *
 * @internal
 */
import type { GuardCallInfo } from './call-guard.js';
import { type AnswerGuardOutcome, type AnswerSlot, guardAnswerSlots } from './answer-slots.js';
import type { Guard, OutputChannel } from './guard-types.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** A slot on `holder[key]` when it is a string. */
function slotOf(holder: Json, key: string, channel: OutputChannel): AnswerSlot[] {
  const text = holder[key];
  if (typeof text !== 'string') return [];
  return [{ channel, text, write: (next) => { holder[key] = next; } }];
}

/** Guards a chat completion in place; a stop empties the choices' text and calls and ends them with `content_filter`. */
export async function guardChatAnswer(answer: Json, guards: readonly Guard[], info: GuardCallInfo): Promise<AnswerGuardOutcome> {
  const choices = objects(answer.choices);
  const slots = choices.flatMap((choice) => {
    const message = isObject(choice.message) ? choice.message : {};
    return [
      ...slotOf(message, 'reasoning_content', 'reasoning'),
      ...slotOf(message, 'content', 'text'),
      ...objects(message.tool_calls).flatMap((call) => (isObject(call.function) ? slotOf(call.function, 'arguments', 'tool_arguments') : [])),
    ];
  });
  const outcome = await guardAnswerSlots(slots, guards, info);
  if (outcome.stop) {
    for (const choice of choices) {
      choice.finish_reason = 'content_filter';
      // The reason reaches the caller where chat puts a model's refusal.
      const refusal = outcome.stop.kind === 'block' ? outcome.stop.reason : `Guard "${outcome.stop.guard}" could not check the answer.`;
      choice.message = { role: 'assistant', content: '', refusal };
    }
  }
  return outcome;
}

/** Guards a messages answer in place; a stop empties its content and ends it with `stop_reason: "refusal"`. */
export async function guardMessagesAnswer(answer: Json, guards: readonly Guard[], info: GuardCallInfo): Promise<AnswerGuardOutcome> {
  const slots = objects(answer.content).flatMap((block) => (block.type === 'text' ? slotOf(block, 'text', 'text') : []));
  const outcome = await guardAnswerSlots(slots, guards, info);
  if (outcome.stop) {
    answer.content = [];
    answer.stop_reason = 'refusal';
    answer.stop_sequence = null;
  }
  return outcome;
}

/** Guards a Response in place; a stop makes it `incomplete` with `content_filter`, its output one refusal. */
export async function guardResponsesAnswer(answer: Json, guards: readonly Guard[], info: GuardCallInfo): Promise<AnswerGuardOutcome> {
  const slots = objects(answer.output).flatMap((item) => {
    if (item.type === 'message') return objects(item.content).flatMap((part) => (part.type === 'output_text' ? slotOf(part, 'text', 'text') : []));
    if (item.type === 'function_call') return slotOf(item, 'arguments', 'tool_arguments');
    if (item.type === 'reasoning') return objects(item.summary).flatMap((part) => slotOf(part, 'text', 'reasoning'));
    return [];
  });
  const outcome = await guardAnswerSlots(slots, guards, info);
  if (outcome.stop) {
    const refusal = outcome.stop.kind === 'block' ? outcome.stop.reason : `Guard "${outcome.stop.guard}" could not check the answer.`;
    const message = objects(answer.output).find((item) => item.type === 'message');
    answer.output = [{ id: message?.id ?? 'msg_filtered', type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'refusal', refusal }] }];
    answer.status = 'incomplete';
    answer.incomplete_details = { reason: 'content_filter' };
    answer.completed_at = null;
  }
  return outcome;
}
