/**
 * One error type for everything the gateway can refuse or fail at.
 *
 * A `GatewayError` carries a stable UPPER_SNAKE `code`, the HTTP `status`
 * from one table, and enough detail for `render-error.ts` to write it in the
 * caller's interface format. `expose` is true for 4xx: their messages are
 * written for the client; 5xx messages are too, but never contain upstream
 * keys, URLs with credentials or upstream bodies.
 */

/** Stable error codes and their HTTP status. */
export const ERROR_CODES = {
  INVALID_REQUEST: 400,
  INVALID_JSON: 400,
  UNSUPPORTED_PARAMETER: 400,
  UNSUPPORTED_FEATURE: 400,
  /** A guard (the `guards` option) refused the request: the reason is the guard's. */
  CONTENT_FILTERED: 400,
  AUTHENTICATION_FAILED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  MODEL_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  REQUEST_TOO_LARGE: 413,
  /** The client closed its connection before the gateway called an upstream (nginx's 499): nobody reads the answer; it is only logged. */
  CLIENT_CLOSED_REQUEST: 499,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_ERROR: 502,
  /** The upstream answered 404 for the endpoint path itself (not for the model): its base URL is wrong. */
  UPSTREAM_ENDPOINT_MISSING: 502,
  /** Every target of the route is cooling after repeated failures (chat 503; messages 529 `overloaded_error`). */
  UPSTREAM_COOLING: 503,
  /** A guard with `onError: 'closed'` threw, timed out or gave an invalid decision: the request is refused unchecked. */
  GUARD_FAILED: 503,
  UPSTREAM_TIMEOUT: 504,
  /** The request came back to a gateway it already passed through (its own `Via` entry): an upstream points back at the gateway. */
  LOOP_DETECTED: 508,
  OVERLOADED: 529,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

const GATEWAY_ERROR = Symbol.for('modelgate.GatewayError');

export interface GatewayErrorOptions {
  /** Overrides the status of the code table (used for relayed upstream statuses). */
  status?: number;
  /** The request field at fault, as a dotted path (`messages.2.content`). */
  param?: string | null;
  /** Machine-readable detail for chat clients (`error.code`), e.g. `unsupported_parameter`. */
  chatCode?: string | null;
  /** Overrides the messages-interface `error.type` (e.g. `overloaded_error` from upstream). */
  messagesType?: string;
  /** Overrides the chat-interface `error.type`. */
  chatType?: string;
  /** Extra response headers (`retry-after`, ...). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** True for client errors (4xx): Koa and friends read this. */
  readonly expose: boolean;
  readonly param: string | null;
  readonly chatCode: string | null;
  readonly messagesType: string | undefined;
  readonly chatType: string | undefined;
  readonly headers: Record<string, string>;
  readonly [GATEWAY_ERROR] = true;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code];
    this.expose = this.status < 500;
    this.param = options.param ?? null;
    this.chatCode = options.chatCode ?? null;
    this.messagesType = options.messagesType;
    this.chatType = options.chatType;
    this.headers = options.headers ?? {};
  }
}

/** True for any `GatewayError`, even one from another copy of this package (ESM + CJS). */
export function isGatewayError(value: unknown): value is GatewayError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[GATEWAY_ERROR] === true;
}

/**
 * Normalises anything thrown into a `GatewayError`. Unknown errors become a
 * 500 whose message does not leak the original (it stays as `cause`).
 */
export function toGatewayError(value: unknown): GatewayError {
  if (isGatewayError(value)) return value;
  return new GatewayError('INTERNAL', 'The gateway failed to handle this request.', { cause: value });
}
