/**
 * A Responses request goes through the chat rules as the chat request it
 * becomes: an error those rules raise names the chat field (`reasoning_effort`,
 * `max_completion_tokens`). The caller sent the Responses field, so the error
 * is renamed to it, in `param` and in the message.
 *
 * @internal
 */
import { GatewayError, isGatewayError } from '../errors.js';

/** Chat request field → the Responses request field it was made from. */
const RESPONSES_FIELDS: Readonly<Record<string, string>> = {
  reasoning_effort: 'reasoning.effort',
  max_completion_tokens: 'max_output_tokens',
  max_tokens: 'max_output_tokens',
  response_format: 'text.format',
};

const CHAT_FIELD = new RegExp(`\`(${Object.keys(RESPONSES_FIELDS).join('|')})\``, 'g');

/** `error` with the Responses field names; anything else as it is. */
export function toResponsesFieldError(error: unknown): unknown {
  if (!isGatewayError(error)) return error;
  const param = error.param === null ? null : (RESPONSES_FIELDS[error.param] ?? error.param);
  const message = error.message.replace(CHAT_FIELD, (_match, field: string) => `\`${RESPONSES_FIELDS[field] ?? field}\``);
  if (param === error.param && message === error.message) return error;
  return new GatewayError(error.code, message, {
    status: error.status,
    param,
    chatCode: error.chatCode,
    ...(error.messagesType !== undefined ? { messagesType: error.messagesType } : {}),
    ...(error.chatType !== undefined ? { chatType: error.chatType } : {}),
    headers: error.headers,
    cause: error,
  });
}
