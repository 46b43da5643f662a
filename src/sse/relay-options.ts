/**
 * Options and contracts of the SSE relay (`relaySse`).
 */
import type { GatewayError } from '../errors.js';
import type { StreamBoundsOptions } from '../bounds/stream-bounds-options.js';
import type { WireFormat } from '../types.js';
import type { SseEvent } from './parse-sse.js';
import type { RawSseEvent } from './raw-sse-event.js';
import type { Redactor } from '../redact/redactor.js';
import type { AbortSource } from '../signals/abort-source.js';

/** Where `StreamTransform.pushRaw` writes: byte ranges, kept by reference until the relay's chunk is taken. */
export interface SseByteSink {
  addBytes(buf: Buffer, start: number, end: number): void;
  /** Appends a whole buffer (cheaper than `addBytes` for constant parts). */
  addBuffer(buf: Buffer): void;
}

/**
 * Turns upstream events into client events (the stream translators implement
 * it). Each returned item is one whole SSE event; the relay writes the items
 * of all events from one upstream read to the client as one chunk.
 *
 * Call order: `push` for every upstream event except chat's `[DONE]` and
 * in-band error events; then exactly one of `end()` (after the terminal
 * event; a messages `message_stop` is pushed first) or `error(err)` (an
 * in-band upstream error, a cut, a time-out or a parse failure).
 */
export interface StreamTransform {
  push(event: SseEvent): Iterable<string | Uint8Array>;
  /**
   * Optional fast path for a regular upstream event still in bytes: write
   * its translation to `out` and return true, or return false to have it
   * decoded and `push`ed instead. The relay offers it only data events
   * (neither terminal nor errors) that `onEvent` does not observe.
   */
  pushRaw?(raw: RawSseEvent, out: SseByteSink): boolean;
  end(): Iterable<string | Uint8Array>;
  error(error: GatewayError): Iterable<string | Uint8Array>;
  /**
   * Optional: receives the relay's `redactor` once, before the first event,
   * for error events the transform writes from `push` (an error it finds in
   * an event the relay took for data). The relay redacts what `error()`
   * returns itself.
   */
  useRedactor?(redactor: Redactor): void;
}

/** What to do with the upstream when the client goes away. */
export type ClientAbortPolicy = 'abort' | 'drain';

/** How a relayed stream ended, reported once to `onEnd`. */
export interface RelayOutcome {
  /**
   * `completed`: the upstream's terminal event was relayed. `failed`: the
   * client got an error event. `aborted`: the client went away first.
   */
  status: 'completed' | 'failed' | 'aborted';
  /** `failed`: the error sent to the client; `aborted` + drain: why the drain stopped early. */
  error?: GatewayError;
  /** `aborted` with the `drain` policy: true when the upstream was read to its end. */
  drained?: boolean;
  /** Upstream events seen (including drained ones). */
  events: number;
  /** `performance.now()` when the first upstream event arrived (time to first byte). */
  firstEventAt?: number;
  /** `performance.now()` when the relay ended. */
  endedAt: number;
}

/** Options of {@link relaySse}. */
export interface RelaySseOptions {
  /** The upstream's SSE body. Destroyed on abort when it has a `destroy()` method (Node streams, undici bodies). */
  upstream: AsyncIterable<Uint8Array>;
  /** Format of the stream sent to the client (heartbeats, error events). */
  format: WireFormat;
  /** Format the upstream speaks. Default: `format`. Must equal `format` unless `transform` is set. */
  upstreamFormat?: WireFormat;
  /** Heartbeat after this much upstream silence, in ms. Default 15000; 0 disables. */
  heartbeatMs?: number;
  /** Translator; without one, events pass through with their name, id and data text unchanged. */
  transform?: StreamTransform;
  /** Sees every upstream event (e.g. a usage observer). Errors it throws are ignored. */
  onEvent?: (event: SseEvent) => void;
  /**
   * Which regular events (still in bytes) `onEvent` needs; the others are
   * not decoded for it, so a relay stays on its byte paths. Default: all.
   * Irregular events (comments, ids, several data lines) always reach `onEvent`.
   */
  observes?: (raw: RawSseEvent) => boolean;
  /** Called for every upstream read (the events that arrived together), for chunk timings. Errors it throws are ignored. */
  onChunk?: () => void;
  /**
   * Called as the stream moves on: each time the client side asks for the
   * next chunk, and for each upstream read of a relay draining after its
   * client left (`onClientAbort: 'drain'`). Must not throw.
   */
  onProgress?: () => void;
  /** Called exactly once when the relay ends (after a drain, when draining). */
  onEnd?: (outcome: RelayOutcome) => void;
  /** The client's signal (or any `AbortSource`): aborted when the client disconnects. */
  signal: AbortSource;
  /**
   * `abort` (default): destroy the upstream request at once. `drain`: read the
   * upstream to its end without writing, so `onEvent` sees the final usage.
   */
  onClientAbort?: ClientAbortPolicy;
  /**
   * Hides secrets (upstream keys) in the error events the client gets: an
   * upstream's in-band error relayed or translated, and the relay's own.
   * Only error paths use it. Default: nothing redacted.
   */
  redactor?: Redactor;
  /** Upstream name for error messages. Default `"upstream"`. */
  upstreamName?: string;
  /** Largest SSE event accepted from the upstream, in characters. Default 4 MiB. */
  maxBufferSize?: number;
  /**
   * Most bytes read from the upstream and longest run, from the relay's
   * start, of this stream (a drain after the client left included); 0
   * disables each. Past one the stream ends with an error event, as a
   * broken upstream's does, and the upstream is aborted. Default
   * `DEFAULT_STREAM_BOUNDS` (256 MiB, 2 h).
   */
  bounds?: StreamBoundsOptions;
}

/** Default of {@link RelaySseOptions.heartbeatMs}. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
