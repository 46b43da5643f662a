/**
 * Bedrock's errors in the messages format: an HTTP error (`{"message": …}`
 * with the exception in `x-amzn-ErrorType`) or an exception frame in a
 * stream (`:exception-type`) becomes the messages error the gateway already
 * renders for either interface, with the status the vendor's API gives for
 * the same failure.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ResponseStream.html
 * @internal
 */
import type { UpstreamResponse } from '../upstream.js';

/** A Bedrock failure as the messages format states it. */
export interface MappedError {
  status: number;
  /** The messages `error.type`. */
  type: string;
}

/** Exceptions by name, first letter lower-cased (frames say `throttlingException`, HTTP `ThrottlingException`). */
const BY_EXCEPTION: Readonly<Record<string, MappedError>> = {
  validationException: { status: 400, type: 'invalid_request_error' },
  accessDeniedException: { status: 403, type: 'permission_error' },
  unrecognizedClientException: { status: 403, type: 'permission_error' },
  invalidSignatureException: { status: 403, type: 'permission_error' },
  expiredTokenException: { status: 403, type: 'permission_error' },
  resourceNotFoundException: { status: 404, type: 'not_found_error' },
  throttlingException: { status: 429, type: 'rate_limit_error' },
  serviceQuotaExceededException: { status: 429, type: 'rate_limit_error' },
  modelNotReadyException: { status: 429, type: 'rate_limit_error' },
  modelTimeoutException: { status: 504, type: 'timeout_error' },
  internalServerException: { status: 500, type: 'api_error' },
  modelErrorException: { status: 500, type: 'api_error' },
  modelStreamErrorException: { status: 500, type: 'api_error' },
  serviceUnavailableException: { status: 529, type: 'overloaded_error' },
};

/** The messages `error.type` of a status (PROTOCOLS A.7). */
export function typeOfStatus(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** `ThrottlingException:http://internal.amazon.com/…` or `com.amazon…#ThrottlingException` → `throttlingException`. */
export function exceptionName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value.split(':', 1)[0]!.split('#').at(-1)!.trim();
  return name === '' ? undefined : name.charAt(0).toLowerCase() + name.slice(1);
}

/** How an exception (by name) or else an HTTP status is told to the caller. */
export function mapBedrockError(exception: string | undefined, status: number): MappedError {
  const name = exceptionName(exception);
  const known = name === undefined ? undefined : BY_EXCEPTION[name];
  return known ?? { status, type: typeOfStatus(status) };
}

/** The messages error body. */
export function messagesErrorJson(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message } });
}

/** The message of a Bedrock error body (`{"message": …}`, sometimes `{"Message": …}`), if any. */
export function bedrockMessage(bytes: Uint8Array): string | undefined {
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    if (typeof json !== 'object' || json === null) return undefined;
    const { message, Message } = json as { message?: unknown; Message?: unknown };
    if (typeof message === 'string') return message;
    return typeof Message === 'string' ? Message : undefined;
  } catch {
    return undefined;
  }
}

/** A response carrying one messages error, as an upstream answering in that format would send it. */
export function errorResponse(mapped: MappedError, message: string, headers: Record<string, string> = {}): UpstreamResponse {
  const bytes = new TextEncoder().encode(messagesErrorJson(mapped.type, message));
  return {
    status: mapped.status,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(bytes.byteLength) },
    body: oneChunk(bytes),
  };
}

/** A body of one chunk. */
export function oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      yield bytes;
    },
  };
}
