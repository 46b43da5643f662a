/**
 * The caller's error for a request a guard stopped before the upstream
 * call: a block is a 400 `content_filter` with the guard's reason (as a
 * vendor answers a prompt its filter refused); a guard that failed closed
 * is a 503 that names the guard but never what it threw (a moderation
 * service's error text may hold URLs or keys).
 */
import { GatewayError } from '../errors.js';
import type { GuardStop } from './guard-types.js';

/** The chat `error.code` of a blocked request (as Azure OpenAI's prompt filter says it). */
export const GUARD_BLOCK_CODE = 'content_filter';

/** The chat `error.code` of a guard that failed closed. */
export const GUARD_FAILED_CODE = 'guard_failed';

/** The error a request stopped by `stop` (at the input stage) answers with. */
export function guardStopError(stop: GuardStop): GatewayError {
  if (stop.kind === 'block') {
    return new GatewayError('CONTENT_FILTERED', `The request was blocked by guard "${stop.guard}": ${stop.reason}`, {
      chatType: 'invalid_request_error',
      chatCode: GUARD_BLOCK_CODE,
    });
  }
  return new GatewayError(
    'GUARD_FAILED',
    `Guard "${stop.guard}" could not check the request, and it refuses what it cannot check; try again later.`,
    { chatCode: GUARD_FAILED_CODE, cause: stop.error },
  );
}
