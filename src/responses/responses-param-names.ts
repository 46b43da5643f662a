/**
 * A refusal raised while the Responses request travels as its chat pivot
 * names the chat field (`reasoning_effort`); a Responses caller never sent
 * that field. This renames it to the Responses field the caller did send
 * (`reasoning.effort`), in `param` and in the message, so the error says
 * what to fix in the caller's own request.
 */
import { GatewayError, isGatewayError } from '../errors.js';

/**
 * Chat pivot field path → the Responses field it came from (the renames of
 * `responsesToChatRequest`), longest first: the nested `json_schema` of
 * `response_format` is flat in `text.format`.
 */
const RESPONSES_NAMES: readonly (readonly [chat: string, responses: string])[] = [
  ['response_format.json_schema', 'text.format'],
  ['response_format', 'text.format'],
  ['reasoning_effort', 'reasoning.effort'],
  ['max_completion_tokens', 'max_output_tokens'],
  ['max_tokens', 'max_output_tokens'],
  ['verbosity', 'text.verbosity'],
];

/** A chat pivot field quoted in a message (`` `reasoning_effort` ``, `` `max_completion_tokens` ``). */
const QUOTED_CHAT_FIELD = new RegExp(`\`(${RESPONSES_NAMES.map(([chat]) => chat.replace('.', '\\.')).join('|')})((?:[.[][^\`]*)?)\``, 'g');

/** The Responses name of a chat pivot field path (`response_format.json_schema.schema` → `text.format.schema`), or the path as it is. */
export function responsesParamOf(param: string): string {
  for (const [chat, responses] of RESPONSES_NAMES) {
    if (param === chat || param.startsWith(`${chat}.`) || param.startsWith(`${chat}[`)) return `${responses}${param.slice(chat.length)}`;
  }
  return param;
}

/** `error` with its chat field named as the Responses caller knows it; anything else is returned unchanged. */
export function inResponsesTerms(error: unknown): unknown {
  if (!isGatewayError(error)) return error;
  const param = error.param === null ? null : responsesParamOf(error.param);
  // Every chat field the message quotes (a budget error names two: `max_completion_tokens` and `reasoning_effort`).
  const message = error.message.replace(QUOTED_CHAT_FIELD, (_match, chat: string, rest: string) => `\`${responsesParamOf(chat + rest)}\``);
  if (param === error.param && message === error.message) return error;
  return new GatewayError(error.code, message, {
    status: error.status,
    param,
    chatCode: error.chatCode,
    ...(error.messagesType === undefined ? {} : { messagesType: error.messagesType }),
    ...(error.chatType === undefined ? {} : { chatType: error.chatType }),
    headers: error.headers,
    cause: error,
  });
}
