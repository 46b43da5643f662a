/**
 * Writes a `GatewayError` in the format of the interface the caller used.
 *
 * @see ../shared/PROTOCOLS.md A.7 (messages) and B.5 (chat completions)
 */
import type { GatewayError } from './errors.js';
import type { JsonResponse, WireFormat } from './types.js';

/** Body of a messages-interface error. */
export interface MessagesErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

/** Body of a chat-completions error; all four keys are always present. */
export interface ChatErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const MESSAGES_TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** The messages-interface `error.type` for a status. */
export function messagesErrorType(status: number): string {
  return MESSAGES_TYPE_BY_STATUS[status] ?? (status < 500 ? 'invalid_request_error' : 'api_error');
}

const CHAT_TYPE_BY_STATUS: Record<number, { type: string; code: string | null }> = {
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'permission_error', code: 'permission_denied' },
  404: { type: 'invalid_request_error', code: 'not_found' },
  413: { type: 'invalid_request_error', code: 'request_too_large' },
  429: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  504: { type: 'timeout_error', code: 'timeout' },
  508: { type: 'server_error', code: 'loop_detected' },
  529: { type: 'server_error', code: 'overloaded' },
};

/** The chat-interface `error.type` and default `error.code` for a status. */
export function chatErrorType(status: number): { type: string; code: string | null } {
  return CHAT_TYPE_BY_STATUS[status] ?? { type: status < 500 ? 'invalid_request_error' : 'server_error', code: null };
}

export function toMessagesErrorBody(error: GatewayError): MessagesErrorBody {
  return { type: 'error', error: { type: error.messagesType ?? messagesErrorType(error.status), message: error.message } };
}

export function toChatErrorBody(error: GatewayError): ChatErrorBody {
  const defaults = chatErrorType(error.status);
  return {
    error: {
      message: error.message,
      type: error.chatType ?? defaults.type,
      param: error.param,
      code: error.chatCode ?? defaults.code,
    },
  };
}

/** The JSON error response for `error` in `format`. */
export function renderError(error: GatewayError, format: WireFormat): JsonResponse {
  const headers: Record<string, string> = { ...error.headers };
  // Errors that cannot change on retry tell the official clients not to retry (PROTOCOLS C.4): a 501,
  // and a 508 (a request loop stays a loop until the configuration changes).
  const retryable =
    error.status === 408 || error.status === 409 || error.status === 429 || (error.status >= 500 && error.status !== 501 && error.status !== 508);
  if (!retryable) {
    headers['x-should-retry'] ??= 'false';
  }
  return {
    type: 'json',
    status: error.status,
    headers,
    body: format === 'messages' ? toMessagesErrorBody(error) : toChatErrorBody(error),
  };
}
