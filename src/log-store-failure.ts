/**
 * Tells the logger of a store command that failed or timed out: one line per
 * failure (the commands skipped during the back-off after it are not
 * logged again), with the store's own message redacted of the gateway's
 * secrets. Requests that it failed reach `onError` on their own.
 *
 * @internal
 */
import type { GatewayLogger } from './observability/options.js';
import type { Redactor } from './redact/redactor.js';
import { describeReason, type StoreFailure } from './store-guard.js';

/** The log event's name, for queries. */
export const STORE_FAILURE_EVENT = 'store_failed';

/** What the gateway does without the response store while it is left alone. */
export const RESPONSE_STORE_CONSEQUENCE = (failure: StoreFailure): string =>
  `It is left alone for ${failure.retryAfterSeconds} s: requests that need it meanwhile are answered without it or refused with 503.`;

/** What the gateway does without the shared health store. */
export const HEALTH_STORE_CONSEQUENCE = (): string => 'Each instance goes on with its own cooldowns; failures are not logged again until a call succeeds.';

export interface StoreFailureLog {
  redactor: Redactor;
  /** What the gateway does without the store meanwhile, for the message. */
  consequence: (failure: StoreFailure) => string;
}

export function logStoreFailure(logger: GatewayLogger | false | undefined, failure: StoreFailure, log: StoreFailureLog): void {
  if (!logger) return;
  const cause = failure.cause instanceof Error ? failure.cause.message : failure.cause === undefined ? undefined : String(failure.cause);
  const detail = cause === undefined ? '' : `: ${log.redactor.redact(cause)}`;
  try {
    logger.error(
      { component: 'modelgate', event: STORE_FAILURE_EVENT, store: failure.store, operation: failure.operation, reason: failure.reason, retryInMs: failure.retryInMs },
      `The ${failure.store} failed (${failure.operation}: ${describeReason(failure.reason, failure.timeoutMs)})${detail}. ${log.consequence(failure)}`,
    );
  } catch {
    // A failing logger must not change the answer.
  }
}
