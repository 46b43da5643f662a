/**
 * Values that are there at once or later. The request path keeps the
 * steps that usually answer at once (a key list's verifier, a loaded
 * router) synchronous: every promise and `await` costs time, and far more
 * once an OpenTelemetry SDK switches on Node's async hooks, which then run
 * for each one.
 *
 * @internal
 */
export type MaybePromise<T> = T | Promise<T>;

/** True for a promise or any other thenable. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
