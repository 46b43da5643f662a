/**
 * Vertex AI's errors in the messages format. Model errors already are
 * (`{"type":"error","error":{…}}`); the platform's own (auth, quota,
 * unknown model) come in Google's envelope `{"error":{"code","message",
 * "status"}}` (sometimes inside an array) and become the messages error of
 * the same status, so retries and fallbacks behave as with the vendor's API
 * (a messages error keeps the vendor's own type).
 *
 * @see https://cloud.google.com/apis/design/errors
 * @internal
 */
import { errorResponse, type MappedError, typeOfStatus } from '../bedrock/bedrock-errors.js';
import type { UpstreamResponse } from '../upstream.js';

/** A Vertex error body, read. */
export interface VertexFailure {
  mapped: MappedError;
  message: string | undefined;
}

function googleError(json: unknown): { message?: unknown; type?: unknown } | undefined {
  const envelope = Array.isArray(json) ? (json[0] as unknown) : json;
  if (typeof envelope !== 'object' || envelope === null) return undefined;
  const error = (envelope as { error?: unknown }).error;
  return typeof error === 'object' && error !== null ? (error as { message?: unknown; type?: unknown }) : undefined;
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
  if ((json as { type?: unknown }).type === 'error' && typeof error?.type === 'string') return { mapped: { status, type: error.type }, message };
  // Google's `status` (RESOURCE_EXHAUSTED, PERMISSION_DENIED, …) always goes with its HTTP code: the status says it all.
  return { mapped: { status, type: typeOfStatus(status) }, message };
}

/** The messages error response of a Vertex failure, its message redacted. */
export function vertexErrorResponse(failure: VertexFailure, fallback: string, redact: (text: string) => string, headers: Record<string, string>): UpstreamResponse {
  return errorResponse(failure.mapped, redact(failure.message ?? fallback), headers);
}
