/**
 * A response answered but not kept because the response store is down:
 * the caller is told in `x-modelgate-warnings` when the headers are still
 * to be sent, and `onError` hears of it (redacted, as of every error), as
 * the answer itself is no error response.
 *
 * @internal
 */
import { type GatewayError, isGatewayError } from '../errors.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { requestRedactor } from '../redact/gateway-redactor.js';
import { redactError, redactRequest } from '../redact/redact-error.js';
import { describeReason, StoreFailure } from '../store-guard.js';

/** The 503 of a response store that failed, timed out or is left alone after a failure (`responseStoreUnavailable`). */
export function isResponseStoreUnavailable(error: unknown): error is GatewayError & { cause: StoreFailure } {
  return isGatewayError(error) && error.cause instanceof StoreFailure;
}

/** The `x-modelgate-warnings` entry of an answer that was not stored. */
export function notStoredWarning(failure: StoreFailure): string {
  return `store: this response is not stored, the response store is unavailable (${describeReason(failure.reason, failure.timeoutMs)}); a later turn cannot refer to it`;
}

/** Reports a response the store did not keep: a warning while `ctx` can still send headers, and `onError`. */
export function reportNotStored(ctx: GatewayContext, runtime: GatewayRuntime, error: GatewayError & { cause: StoreFailure }, options: { headersSent: boolean }): void {
  if (!options.headersSent) {
    const warning = notStoredWarning(error.cause);
    if (!ctx.warnings.includes(warning)) ctx.warnings.push(warning);
  }
  try {
    runtime.options.onError?.({ error: redactError(error, requestRedactor(runtime.redactor, ctx)), request: redactRequest(ctx.request), requestId: ctx.requestId });
  } catch {
    // A failing observer must not change the answer.
  }
}
