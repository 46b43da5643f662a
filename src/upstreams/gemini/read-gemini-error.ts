/**
 * Google's error envelope `{"error":{"code","message","status","details"}}`
 * (an HTTP error body, sometimes inside an array, or one event of a stream)
 * → the chat-format error the gateway relays in the caller's format, with
 * the status Google meant, so retries, fallbacks and cooldowns treat Gemini
 * like any upstream: 429 and 5xx are retried, 4xx are not.
 *
 * Two of Google's habits are straightened out: an invalid API key is a 400
 * `INVALID_ARGUMENT` with reason `API_KEY_INVALID` (told as the 401 it is,
 * so the message about the gateway's key stays behind), and a quota error
 * says when to come back in a `RetryInfo` detail (`"retryDelay": "27s"`),
 * told as `retry-after`.
 *
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting
 * @see https://cloud.google.com/apis/design/errors
 * @internal
 */
import { GatewayError } from '../../errors.js';
import { chatErrorType, toChatErrorBody } from '../../render-error.js';
import { oneChunk } from '../bedrock/bedrock-errors.js';
import type { UpstreamResponse } from '../upstream.js';

/** A Google error, read. */
export interface GeminiFailure {
  /** The HTTP status it stands for. */
  status: number;
  /** Google's message, when it gave one. */
  message?: string;
  /** Google's canonical code name (`RESOURCE_EXHAUSTED`, ...). */
  googleStatus?: string;
  /** When to come back, from a `RetryInfo` detail. */
  retryAfterMs?: number;
}

/** Canonical code names → HTTP status, for an envelope without a numeric `code`. */
const STATUS_BY_NAME: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  NOT_IMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `"27s"`, `"1.5s"` (protobuf Duration in JSON) → ms. */
function durationMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.ceil(Number(match[1]) * 1000) : undefined;
}

function detailsOf(error: Json): Json[] {
  return Array.isArray(error.details) ? error.details.filter(isObject) : [];
}

/** The `error` object of an envelope (or of the first one of an array), if `json` is one. */
export function googleErrorOf(json: unknown): Json | undefined {
  const envelope = Array.isArray(json) ? (json[0] as unknown) : json;
  return isObject(envelope) && isObject(envelope.error) ? envelope.error : undefined;
}

/**
 * Reads Google's error `json` (the envelope); `status` is the HTTP status
 * it came with (none for an event inside a stream: the envelope's `code`
 * then says it). Anything unreadable leaves `status` (502 without one).
 */
export function parseGeminiError(json: unknown, status?: number): GeminiFailure {
  const error = googleErrorOf(json);
  if (error === undefined) return { status: status ?? 502 };
  const googleStatus = typeof error.status === 'string' ? error.status : undefined;
  const code = typeof error.code === 'number' && error.code >= 400 && error.code < 600 ? error.code : undefined;
  let resolved = status ?? code ?? (googleStatus ? STATUS_BY_NAME[googleStatus] : undefined) ?? 502;
  const details = detailsOf(error);
  if (details.some((detail) => detail.reason === 'API_KEY_INVALID')) resolved = 401;
  const retryAfterMs = details.map((detail) => durationMs(detail.retryDelay)).find((ms) => ms !== undefined);
  return {
    status: resolved,
    ...(typeof error.message === 'string' && error.message !== '' ? { message: error.message } : {}),
    ...(googleStatus ? { googleStatus } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** Reads an HTTP error body of Google's. */
export function readGeminiError(bytes: Uint8Array, status: number): GeminiFailure {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { status };
  }
  return parseGeminiError(json, status);
}

/**
 * The failure as a `GatewayError`: Google's message (through `redact`), the
 * chat type of the status and, for a status without a chat code of its own,
 * Google's code name in lower case (`invalid_argument`).
 */
export function geminiFailureToError(failure: GeminiFailure, upstream: string, redact: (text: string) => string = (text) => text): GatewayError {
  const defaults = chatErrorType(failure.status);
  const code = defaults.code ?? failure.googleStatus?.toLowerCase() ?? null;
  const headers: Record<string, string> = {};
  if (failure.retryAfterMs !== undefined) {
    headers['retry-after'] = String(Math.ceil(failure.retryAfterMs / 1000));
    headers['retry-after-ms'] = String(failure.retryAfterMs);
  }
  return new GatewayError('UPSTREAM_ERROR', redact(failure.message ?? `Upstream "${upstream}" failed (HTTP ${failure.status}).`), {
    status: failure.status,
    chatType: defaults.type,
    chatCode: code,
    headers,
  });
}

/**
 * A response carrying `error` as a chat-completions error body, with its
 * status and headers: what a chat upstream answers, so the gateway reads it
 * (`readUpstreamError`) and tells it in the caller's format.
 */
export function chatErrorResponse(error: GatewayError, headers: Record<string, string> = {}): UpstreamResponse {
  const bytes = new TextEncoder().encode(JSON.stringify(toChatErrorBody(error)));
  return {
    status: error.status,
    headers: { ...headers, ...error.headers, 'content-type': 'application/json', 'content-length': String(bytes.byteLength) },
    body: oneChunk(bytes),
  };
}
