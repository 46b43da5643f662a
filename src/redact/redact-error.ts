/**
 * Redacted copies of what error paths hand out.
 *
 * A `GatewayError`'s message, code, type and param are the gateway's own
 * words, except where an upstream's text was put in them, and that text was
 * redacted where it came in (`readUpstreamError`, `errorFromUpstreamEvent`).
 * So on its way out an error only has its causes redacted (errors thrown by
 * undici, credential providers, other libraries: foreign text), and, for the
 * client, the names of unnamed upstreams hidden. `redactError` is for an
 * error made wholly of foreign text.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { GatewayRequest } from '../types.js';
import { REDACTED, type Redactor } from './redactor.js';
import { EndpointMissingDetail } from '../upstreams/endpoint-missing.js';

/** Causes followed at most this deep (a cycle or a long chain stops there). */
const MAX_CAUSE_DEPTH = 4;

function redactCause(cause: unknown, redactor: Redactor, depth: number): unknown {
  if (typeof cause === 'string') return redactor.redact(cause);
  // Configuration facts for operators (the base URL a 404 came from), secret-free by construction.
  if (cause instanceof EndpointMissingDetail) return cause;
  if (!(cause instanceof Error) || depth >= MAX_CAUSE_DEPTH) return cause;
  const message = redactor.redact(cause.message);
  const stack = cause.stack === undefined ? undefined : redactor.redact(cause.stack);
  const inner = redactCause(cause.cause, redactor, depth + 1);
  if (message === cause.message && stack === cause.stack && inner === cause.cause) return cause;
  // A plain copy keeps what logs read (name, message, stack, code, cause) without the secret.
  const copy = new Error(message, inner === undefined ? undefined : { cause: inner });
  copy.name = cause.name;
  copy.stack = stack;
  const code = (cause as { code?: unknown }).code;
  if (code !== undefined) (copy as Error & { code?: unknown }).code = code;
  return copy;
}

function redactNullable(value: string | null, redactor: Redactor): string | null {
  return value === null ? null : redactor.redact(value);
}

function redactOptional(value: string | undefined, redactor: Redactor): string | undefined {
  return value === undefined ? undefined : redactor.redact(value);
}

/**
 * `error` with the secrets taken out of everything a client or a log can
 * see: message, `param`, chat `code` and `type`, messages `type`, headers
 * and the cause chain (messages and stacks). The same object when nothing
 * needed redacting.
 */
export function redactError(error: GatewayError, redactor: Redactor): GatewayError {
  if (redactor.empty) return error;
  const message = redactor.redact(error.message);
  const param = redactNullable(error.param, redactor);
  const chatCode = redactNullable(error.chatCode, redactor);
  const chatType = redactOptional(error.chatType, redactor);
  const messagesType = redactOptional(error.messagesType, redactor);
  let headersChanged = false;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(error.headers)) {
    headers[name] = redactor.redact(value);
    if (headers[name] !== value) headersChanged = true;
  }
  const cause = redactCause(error.cause, redactor, 0);
  const stack = error.stack === undefined ? undefined : redactor.redact(error.stack);
  const unchanged =
    message === error.message && param === error.param && chatCode === error.chatCode && chatType === error.chatType &&
    messagesType === error.messagesType && !headersChanged && cause === error.cause && stack === error.stack;
  if (unchanged) return error;
  const copy = new GatewayError(error.code, message, {
    status: error.status,
    param,
    chatCode,
    headers,
    ...(chatType === undefined ? {} : { chatType }),
    ...(messagesType === undefined ? {} : { messagesType }),
    ...(cause === undefined ? {} : { cause }),
  });
  copy.stack = stack;
  return copy;
}

/** A copy of `error` with `changes`, keeping everything else (a `GatewayError`'s fields are read-only). */
function copyError(error: GatewayError, changes: { message?: string; cause?: unknown }): GatewayError {
  const cause = 'cause' in changes ? changes.cause : error.cause;
  const copy = new GatewayError(error.code, changes.message ?? error.message, {
    status: error.status,
    param: error.param,
    chatCode: error.chatCode,
    headers: error.headers,
    ...(error.chatType === undefined ? {} : { chatType: error.chatType }),
    ...(error.messagesType === undefined ? {} : { messagesType: error.messagesType }),
    ...(cause === undefined ? {} : { cause }),
  });
  return copy;
}

/**
 * `error` with its cause chain (messages and stacks) redacted; its own
 * message and fields are left as they are (see above). The same object when
 * no cause needed redacting. What `onError`, usage records and logs get.
 */
export function redactCauses(error: GatewayError, redactor: Redactor): GatewayError {
  if (redactor.empty) return error;
  const cause = redactCause(error.cause, redactor, 0);
  if (cause === error.cause) return error;
  const copy = copyError(error, { cause });
  copy.stack = error.stack;
  return copy;
}

/**
 * `error` as a client reads it: the names of upstreams that are addresses
 * replaced by a neutral form (`onError` keeps them, for the operator). The
 * same object when its message names none.
 */
export function errorForClient(error: GatewayError, redactor: Redactor): GatewayError {
  const message = redactor.forClient(error.message);
  return message === error.message ? error : copyError(error, { message });
}

/** Request headers that carry the caller's credentials. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'proxy-authorization', 'cookie'] as const;

/**
 * The request as `onError` sees it: the same, except that its credential
 * headers (`authorization`, `x-api-key`, `proxy-authorization`, `cookie`)
 * read `[redacted]`: logging the event must not log keys (with key
 * passthrough, the caller's key is also the upstream's).
 */
export function redactRequest(request: GatewayRequest): GatewayRequest {
  if (!CREDENTIAL_HEADERS.some((name) => request.headers[name] !== undefined)) return request;
  const headers = { ...request.headers };
  for (const name of CREDENTIAL_HEADERS) if (headers[name] !== undefined) headers[name] = REDACTED;
  return { ...request, headers };
}
