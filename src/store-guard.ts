/**
 * Bounds the commands of a store on the request path (the response store,
 * and any later one): each waits at most `timeoutMs`, and after a failure
 * the store is left alone for `retryMs` (its commands fail at once), so an
 * outage costs one time-out, not one per request. What to do with a failure
 * (a 503, an answer without the store) is the caller's.
 *
 * @internal
 */

export interface StoreGuardOptions {
  /** The store as messages name it, e.g. `'response store'`. */
  name: string;
  /** Ms one command may take before it counts as a failure. */
  timeoutMs: number;
  /** Ms the store is left alone after a failure. */
  retryMs: number;
  /** Errors that are the store's own answer (a quota refusal), not a failure: passed on as they are, no back-off. */
  isAnswer?: (error: unknown) => boolean;
  /** Told of each failed or timed-out command (not of the commands skipped during the back-off after it). */
  onFailure?: (failure: StoreFailure) => void;
}

/** Why a guarded command did not answer: it failed, it timed out, or it was skipped while the store is left alone. */
export type StoreFailureReason = 'failed' | 'timeout' | 'backoff';

/** What a {@link StoreFailure} is made of. */
export interface StoreFailureDetails {
  /** The store as messages name it. */
  store: string;
  /** The command, e.g. `'get'`. */
  operation: string;
  reason: StoreFailureReason;
  /** Ms until the store is tried again. */
  retryInMs: number;
  /** The guard's time-out, for the message. */
  timeoutMs: number;
  /** The store's own error, when it gave one. */
  cause?: unknown;
}

/** A store command that did not answer; the store's own error, if any, is its `cause`. */
export class StoreFailure extends Error {
  override readonly name = 'StoreFailure';
  readonly store: string;
  readonly operation: string;
  readonly reason: StoreFailureReason;
  readonly retryInMs: number;
  readonly timeoutMs: number;

  constructor(details: StoreFailureDetails) {
    super(`${details.store} ${details.operation}: ${describeReason(details.reason, details.timeoutMs)}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.store = details.store;
    this.operation = details.operation;
    this.reason = details.reason;
    this.retryInMs = details.retryInMs;
    this.timeoutMs = details.timeoutMs;
  }

  /** Whole seconds until the store is tried again, at least 1: a `retry-after` value. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.retryInMs / 1000));
  }
}

/** The reason in words, without the store's own message (which may hold an internal address). */
export function describeReason(reason: StoreFailureReason, timeoutMs: number): string {
  switch (reason) {
    case 'failed':
      return 'the command failed';
    case 'timeout':
      return `no answer within ${timeoutMs} ms`;
    case 'backoff':
      return 'skipped: the store is left alone for a while after a failure';
  }
}

export interface StoreGuard {
  /** Runs one command within the time-out; rejects with a {@link StoreFailure} when it fails, times out or is skipped. */
  run<T>(operation: string, command: () => Promise<T>): Promise<T>;
  /** Ms left of the back-off after the last failure; 0 when the store is tried. */
  backoffLeft(): number;
}

export function createStoreGuard(options: StoreGuardOptions): StoreGuard {
  let downUntil = 0;

  const fail = (operation: string, reason: StoreFailureReason, cause: unknown): StoreFailure => {
    downUntil = Date.now() + options.retryMs;
    const failure = new StoreFailure({ store: options.name, operation, reason, retryInMs: options.retryMs, timeoutMs: options.timeoutMs, cause });
    try {
      options.onFailure?.(failure);
    } catch {
      // A failing logger must not change the answer.
    }
    return failure;
  };

  const backoffLeft = (): number => Math.max(0, downUntil - Date.now());

  return {
    backoffLeft,
    run<T>(operation: string, command: () => Promise<T>): Promise<T> {
      const left = backoffLeft();
      if (left > 0) return Promise.reject(new StoreFailure({ store: options.name, operation, reason: 'backoff', retryInMs: left, timeoutMs: options.timeoutMs }));
      return new Promise<T>((resolve, reject) => {
        let settled = false;
        const timer = setTimeout(() => {
          settled = true;
          reject(fail(operation, 'timeout', undefined));
        }, options.timeoutMs);
        timer.unref();
        // A custom store that throws instead of rejecting is failing all the same.
        new Promise<T>((run) => run(command())).then(
          (value) => {
            if (settled) return;
            clearTimeout(timer);
            resolve(value);
          },
          (error: unknown) => {
            if (settled) return;
            clearTimeout(timer);
            reject(options.isAnswer?.(error) === true ? error : fail(operation, 'failed', error));
          },
        );
      });
    },
  };
}
