/**
 * The `streamBounds` option: how much one streamed answer may carry and how
 * long it may last, so that an upstream that streams without end (broken,
 * looping or hostile) cannot hold a call, its place and the client forever.
 * The upstream's idle time-out only bounds its silences.
 */

export interface StreamBoundsOptions {
  /**
   * Most bytes of one upstream event stream, in bytes; 0 disables it.
   * Default 268435456 (256 MiB). A 128k-token answer is some tens of MB of
   * SSE (one event of 100–250 bytes per token); even with `top_logprobs: 20`
   * on every token it stays under 200 MB.
   */
  maxBytes?: number;
  /**
   * Longest time one stream may run, from its response head to its last
   * event, in ms; 0 disables it. Default 7200000 (2 h). A 128k-token answer
   * (thinking included) at 30 tokens/s takes about 71 minutes.
   */
  maxDurationMs?: number;
}

/** Every bound, with its default applied (0: off). */
export type StreamBounds = Readonly<Required<StreamBoundsOptions>>;

export const DEFAULT_STREAM_BOUNDS: StreamBounds = Object.freeze({
  maxBytes: 256 * 1024 * 1024,
  maxDurationMs: 2 * 60 * 60 * 1000,
});

/** The bounds a gateway applies: its option over the defaults. */
export function resolveStreamBounds(options: StreamBoundsOptions | undefined): StreamBounds {
  return Object.freeze({
    maxBytes: options?.maxBytes ?? DEFAULT_STREAM_BOUNDS.maxBytes,
    maxDurationMs: options?.maxDurationMs ?? DEFAULT_STREAM_BOUNDS.maxDurationMs,
  });
}
