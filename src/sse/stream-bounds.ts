/**
 * One relayed stream's totals against its `streamBounds`: the bytes read
 * from the upstream and the time since the stream started. Passing either
 * gives the error the stream ends with; the relay aborts the upstream.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { StreamBounds } from '../bounds/stream-bounds-options.js';

/** `bytes` as the largest whole unit that divides it (`256 MiB`, `1500 bytes`). */
function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** `ms` as the largest whole unit that divides it (`2 h`, `90 s`, `300 ms`). */
function formatDuration(ms: number): string {
  for (const [unit, size] of [['h', 3_600_000], ['min', 60_000], ['s', 1_000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  }
  return `${ms} ms`;
}

/** The error of a stream that passed `maxBytes`: the upstream's, as a 502. */
export function streamTooLarge(upstream: string, maxBytes: number): GatewayError {
  return new GatewayError(
    'UPSTREAM_ERROR',
    `Upstream "${upstream}" streamed more than ${formatBytes(maxBytes)}, the gateway's limit for one stream (streamBounds.maxBytes); the stream was ended.`,
  );
}

/** The error of a stream that passed `maxDurationMs`: a 504 time-out. */
export function streamTooLong(upstream: string, maxDurationMs: number): GatewayError {
  return new GatewayError(
    'UPSTREAM_TIMEOUT',
    `Upstream "${upstream}" streamed for longer than ${formatDuration(maxDurationMs)}, the gateway's limit for one stream (streamBounds.maxDurationMs); the stream was ended.`,
  );
}

export class StreamBoundsTracker {
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bounds: StreamBounds,
    private readonly upstream: string,
  ) {}

  /** Starts the duration clock (when bounded): `onExpire` gets the error once `maxDurationMs` has passed, unless `stop()` came first. */
  start(onExpire: (error: GatewayError) => void): void {
    const { maxDurationMs } = this.bounds;
    if (maxDurationMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      onExpire(streamTooLong(this.upstream, maxDurationMs));
    }, maxDurationMs);
    // The stream's own socket keeps the process alive while it runs; this clock alone should not.
    this.timer.unref();
  }

  /** Counts `bytes` more read from the upstream; the error once the total passes `maxBytes`. */
  count(bytes: number): GatewayError | undefined {
    this.bytes += bytes;
    const { maxBytes } = this.bounds;
    return maxBytes > 0 && this.bytes > maxBytes ? streamTooLarge(this.upstream, maxBytes) : undefined;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
