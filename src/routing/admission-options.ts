/**
 * The `admission` option: how many model calls one gateway instance serves
 * at once, how many of them one principal may hold, and how long a call
 * past that may wait for a free place.
 */

export interface AdmissionOptions {
  /**
   * Most model calls this gateway instance serves at once: requests in
   * progress and streams still open (a streamed answer counts until its
   * stream ends). Past it a call is refused at once (503 `overloaded` to
   * OpenAI-style callers, 529 `overloaded_error` to messages callers, with
   * `retry-after`), or queued for up to `queueMs`.
   */
  maxInFlight: number;
  /**
   * Most places one principal (an API key's `id`, or what `verify` returns)
   * holds at once, so that one caller's long streams cannot take every place
   * while others wait. A call of a principal at its share is queued (with
   * `queueMs`) or refused (503 / 529 `overloaded`, saying its share is full)
   * even while other principals are still admitted. It also bounds the
   * principal's calls waiting in the queue: with its share already waiting,
   * one more is refused at once, so one caller cannot fill the queue.
   *
   * Default: half the places, rounded up (`Math.ceil(maxInFlight / 2)`):
   * a second principal always finds room, whatever the first one holds.
   * A gateway with a single principal (one key for a whole team) that
   * should let it take every place sets `maxPerPrincipal: maxInFlight`.
   */
  maxPerPrincipal?: number;
  /**
   * Longest wait, in ms, for a place when none is free (or the caller's
   * share is full): calls are refused when none frees in time. A freed
   * place goes to the waiting call whose principal holds the fewest places,
   * the oldest first among equals. 0 (default) refuses at once.
   */
  queueMs?: number;
  /**
   * Most calls waiting at once; past it a call is refused at once. One
   * principal has at most `maxPerPrincipal` of them.
   * Default: `maxInFlight`. Only with `queueMs`.
   */
  maxQueued?: number;
}

/** The share of one principal when `maxPerPrincipal` is not set: half the places, rounded up. */
export function defaultMaxPerPrincipal(maxInFlight: number): number {
  return Math.max(1, Math.ceil(maxInFlight / 2));
}
