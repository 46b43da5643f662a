/**
 * Vertex AI's errors in the messages format. Model errors already are
 * (`{"type":"error","error":{…}}`); the platform's own (auth, quota,
 * unknown model) come in Google's envelope `{"error":{"code","message",
 * "status"}}` (sometimes inside an array) and become the messages error of
 * the same status, so retries and fallbacks behave as with the vendor's API.
 *
 * @see https://cloud.google.com/apis/design/errors
 * @internal
 */
import { errorResponse, type MappedError, typeOfStatus } from '../bedrock/bedrock-errors.js';
import type { UpstreamResponse } from '../upstream.js';

/** Google's canonical codes whose messages type is not the one of their HTTP status. */
const BY_STATUS: Readonly<Record<string, MappedError>> = {
  INVALID_ARGUMENT: { status: 400, type: 'invalid_request_error' },
  FAILED_PRECONDITION: { status: 400, type: 'invalid_request_error' },
  OUT_OF_RANGE: { status: 400, type: 'invalid_request_error' },
  UNAUTHENTICATED: { status: 401, type: 'authentication_error' },
  PERMISSION_DENIED: { status: 403, type: 'permission_error' },
  NOT_FOUND: { status: 404, type: 'not_found_error' },
  RESOURCE_EXHAUSTED: { status: 429, type: 'rate_limit_error' },
  UNAVAILABLE: { status: 503, type: 'api_error' },
  DEADLINE_EXCEEDED: { status: 504, type: 'timeout_error' },
};

/** A Vertex error body, read. */
export interface VertexFailure {
  mapped: MappedError;
  message: string | undefined;
}

function googleError(json: unknown): { code?: unknown; message?: unknown; status?: unknown } | undefined {
  const envelope = Array.isArray(json) ? (json[0] as unknown) : json;
  if (typeof envelope !== 'object' || envelope === null) return undefined;
  const error = (envelope as { error?: unknown }).error;
  return typeof error === 'object' && error !== null ? (error as { code?: unknown; message?: unknown; status?: unknown }) : undefined;
}

/** How an error body (messages-shaped, or Google's envelope) with `status` is told to the caller. */
export function readVertexError(bytes: Uint8Array, status: number): VertexFailure {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { mapped: { status, type: typeOfStatus(status) }, message: undefined };
  }
  const error = googleError(json);
  const message = typeof error?.message === 'string' ? error.message : undefined;
  if ((json as { type?: unknown }).type === 'error' && typeof (error as { type?: unknown } | undefined)?.type === 'string') {
    return { mapped: { status, type: (error as { type: string }).type }, message };
  }
  const known = typeof error?.status === 'string' ? BY_STATUS[error.status] : undefined;
  return { mapped: known ?? { status, type: typeOfStatus(status) }, message };
}

/** The messages error response of a Vertex failure, its message redacted. */
export function vertexErrorResponse(failure: VertexFailure, fallback: string, redact: (text: string) => string, headers: Record<string, string>): UpstreamResponse {
  return errorResponse(failure.mapped, redact(failure.message ?? fallback), headers);
}
