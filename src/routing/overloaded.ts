/**
 * The refusals of admission control and shutdown, in the caller's terms:
 * 503 with `error.code: "overloaded"` for OpenAI-style callers (chat
 * completions, Responses), 529 `overloaded_error` for messages callers,
 * both with `retry-after` so the official clients wait before retrying.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { WireFormat } from '../types.js';

/** Status of an `overloaded` refusal per caller interface. */
export const OVERLOADED_STATUS: Readonly<Record<WireFormat, number>> = { chat: 503, messages: 529 };

/**
 * A refusal because the instance is full (or queued too long), or, with
 * `code` `UPSTREAM_COOLING`, because every target of the route is cooling:
 * 503 (chat code `overloaded` / `upstream_cooling`) or 529 `overloaded_error`.
 */
export function overloadedError(
  format: WireFormat,
  message: string,
  retryAfterSeconds: number,
  code: 'OVERLOADED' | 'UPSTREAM_COOLING' = 'OVERLOADED',
): GatewayError {
  return new GatewayError(code, message, {
    status: OVERLOADED_STATUS[format],
    chatCode: code === 'OVERLOADED' ? 'overloaded' : 'upstream_cooling',
    chatType: 'server_error',
    messagesType: 'overloaded_error',
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
}

/** The message of a model call refused or cut because the server is shutting down. */
export const SHUTTING_DOWN = 'This server is shutting down and takes no new model calls; retry (another instance will answer).';

/** The error event that ends a stream still open at the end of a shutdown's grace period. */
/** The answer of a non-streamed call still waiting for its upstream when a shutdown's grace period ends. */
export const SHUT_DOWN_WAITING = 'This server shut down before the upstream answered; retry the request.';

export function shutdownStreamError(): GatewayError {
  return new GatewayError('OVERLOADED', 'This server shut down before the stream ended; retry the request.', {
    chatCode: 'overloaded',
    chatType: 'server_error',
    messagesType: 'overloaded_error',
  });
}
