/**
 * The body an adapter left unread (`GatewayRequest.readBody`), read when
 * the pipeline needs it: after authentication (and, for a model call, its
 * place), so that nothing is buffered for a caller without a valid key.
 *
 * @internal
 */
import type { MaybePromise } from './maybe-promise.js';
import type { GatewayRequest } from './types.js';

/** Whether `request` still has a body to read. */
export function hasUnreadBody(request: GatewayRequest): boolean {
  return request.readBody !== undefined && request.rawBody === undefined && request.body === undefined;
}

/** Reads the unread body into `request.rawBody`; a second call while the first reads shares its read. */
export function loadRequestBody(request: GatewayRequest): MaybePromise<void> {
  if (!hasUnreadBody(request)) return;
  const reading = request.readBody!();
  request.readBody = () => reading;
  return reading.then((bytes) => {
    request.rawBody = bytes;
  });
}
