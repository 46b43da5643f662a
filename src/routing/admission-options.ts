/**
 * The `admission` option: how many model calls one gateway instance serves
 * at once, and how long a call past that may wait for a free place.
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
   * Longest wait, in ms, for a place when every one is taken: calls queue
   * first come, first served, and are refused when none frees in time.
   * 0 (default) refuses at once.
   */
  queueMs?: number;
  /**
   * Most calls waiting at once (they hold their request bodies); past it a
   * call is refused at once. Default: `maxInFlight`. Only with `queueMs`.
   */
  maxQueued?: number;
}
