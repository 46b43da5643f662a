/**
 * The part of an `AbortSignal` the retry loop, the built-in HTTP upstreams
 * and undici's `request()` use (undici takes any object with these
 * members). An `AbortSignal` is one; the request deadline is a cheaper one.
 *
 * @internal
 */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
