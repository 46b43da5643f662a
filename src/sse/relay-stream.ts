/**
 * The SSE relay: upstream bytes → parsed events → (translated) client events,
 * one chunk per event, pulled at the client's pace.
 *
 * It is a hand-written async iterator rather than an async generator so that
 * a client abort can end a pending `next()` at once: a generator's `return()`
 * waits until the generator's own `await` on the upstream settles, which is
 * never for a silent upstream.
 */
import { performance } from 'node:perf_hooks';
import { GatewayError, toGatewayError } from '../errors.js';
import type { WireFormat } from '../types.js';
import { classifyUpstreamEvent, errorFromUpstreamEvent } from './classify-upstream-event.js';
import { encodeStreamError, formatSse, heartbeatFor } from './format-sse.js';
import { parseSse, type SseEvent } from './parse-sse.js';
import { DEFAULT_HEARTBEAT_MS, type RelayOutcome, type RelaySseOptions } from './relay-options.js';

export type { ClientAbortPolicy, RelayOutcome, RelaySseOptions, StreamTransform } from './relay-options.js';
export { DEFAULT_HEARTBEAT_MS } from './relay-options.js';

/** Events read after the terminal one before the upstream is cut instead (keeps a finished relay cheap). */
const MAX_TRAILING_EVENTS = 100;

type Wake =
  | { kind: 'event'; event: SseEvent }
  | { kind: 'end' }
  | { kind: 'failure'; error: unknown }
  | { kind: 'heartbeat' }
  | { kind: 'abort' };

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
const HEARTBEAT: Wake = { kind: 'heartbeat' };
const END: Wake = { kind: 'end' };
const ABORT: Wake = { kind: 'abort' };
const encoder = new TextEncoder();
const noop = (): void => {};

function toBytes(chunk: string | Uint8Array): Uint8Array {
  return typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}

class SseRelay implements AsyncIterableIterator<Uint8Array, undefined> {
  private readonly events: AsyncGenerator<SseEvent, void, undefined>;
  private readonly upstreamFormat: WireFormat;
  private readonly heartbeat: Uint8Array;
  private readonly heartbeatMs: number;
  private readonly queue: Uint8Array[] = [];
  private pending: Promise<IteratorResult<SseEvent, void>> | undefined;
  private waiter: ((wake: Wake) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** `streaming` → `closing` (last chunks queued) → `done`. */
  private phase: 'streaming' | 'closing' | 'done' = 'streaming';
  private status: RelayOutcome['status'] = 'completed';
  private error: GatewayError | undefined;
  private eventCount = 0;
  private firstEventAt: number | undefined;

  constructor(private readonly options: RelaySseOptions) {
    this.upstreamFormat = options.upstreamFormat ?? options.format;
    if (!options.transform && this.upstreamFormat !== options.format) {
      throw new TypeError('relaySse: a transform is required when the upstream format differs from the client format');
    }
    this.events = parseSse(options.upstream, { maxBufferSize: options.maxBufferSize });
    this.heartbeat = encoder.encode(heartbeatFor(options.format));
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (options.signal.aborted) this.abort();
    else options.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array, undefined>> {
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk !== undefined) return { done: false, value: chunk };
      if (this.phase === 'done') return DONE;
      if (this.phase === 'closing') {
        this.finish();
        return DONE;
      }
      const wake = await this.wait();
      switch (wake.kind) {
        case 'heartbeat':
          return { done: false, value: this.heartbeat };
        case 'abort':
          return DONE;
        case 'event':
          this.handleEvent(wake.event);
          break;
        case 'end':
          this.fail(new GatewayError('UPSTREAM_ERROR', `Upstream "${this.name}" ended the stream before it was complete.`));
          break;
        case 'failure':
          this.fail(toGatewayError(wake.error));
          break;
      }
    }
  }

  /** The client stopped reading (the adapter's write failed or the socket closed). */
  async return(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.abort();
    return DONE;
  }

  async throw(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.abort();
    return DONE;
  }

  private get name(): string {
    return this.options.upstreamName ?? 'upstream';
  }

  /** Waits for the next upstream event, a heartbeat tick or an abort, whichever comes first. */
  private wait(): Promise<Wake> {
    // A read interrupted by a heartbeat stays pending and is raced again: never two reads at once.
    const pending = (this.pending ??= this.events.next());
    return new Promise<Wake>((resolve) => {
      this.waiter = resolve;
      if (this.heartbeatMs > 0) this.timer = setTimeout(resolve, this.heartbeatMs, HEARTBEAT);
      pending.then(
        (result) => resolve(result.done ? END : { kind: 'event', event: result.value }),
        (error: unknown) => resolve({ kind: 'failure', error }),
      );
    }).then((wake) => {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.waiter = undefined;
      if (wake.kind !== 'heartbeat' && wake.kind !== 'abort') this.pending = undefined;
      return wake;
    });
  }

  private notify(event: SseEvent): void {
    this.eventCount++;
    this.firstEventAt ??= performance.now();
    try {
      this.options.onEvent?.(event);
    } catch {
      // Observers (usage, logs) must never break the stream they watch.
    }
  }

  private enqueue(chunks: Iterable<string | Uint8Array>): void {
    for (const chunk of chunks) this.queue.push(toBytes(chunk));
  }

  private handleEvent(event: SseEvent): void {
    this.notify(event);
    const { transform } = this.options;
    const kind = classifyUpstreamEvent(event, this.upstreamFormat);
    try {
      if (kind === 'error') {
        const error = errorFromUpstreamEvent(event, this.upstreamFormat, this.name);
        // Same format: the vendor's own error event is already what the client expects.
        this.enqueue(transform ? transform.error(error) : [formatSse(event)]);
        this.close('failed', error);
        return;
      }
      if (transform) {
        if (!(kind === 'terminal' && this.upstreamFormat === 'chat')) this.enqueue(transform.push(event));
        if (kind === 'terminal') this.enqueue(transform.end());
      } else {
        this.queue.push(encoder.encode(formatSse(event)));
      }
    } catch (error) {
      this.fail(toGatewayError(error));
      return;
    }
    if (kind === 'terminal') this.close('completed');
  }

  /** Ends the client stream with one error event in its format. */
  private fail(error: GatewayError): void {
    const { transform } = this.options;
    let chunks: Iterable<string | Uint8Array> | undefined;
    if (transform) {
      try {
        chunks = [...transform.error(error)];
      } catch {
        chunks = undefined;
      }
    }
    this.enqueue(chunks ?? [encodeStreamError(error, this.options.format)]);
    this.destroyUpstream();
    this.phase = 'closing';
    this.status = 'failed';
    this.error = error;
  }

  /** The upstream said its last word: finish the client stream now, release the upstream in the background. */
  private close(status: 'completed' | 'failed', error?: GatewayError): void {
    this.phase = 'closing';
    this.status = status;
    this.error = error;
    void this.readRest(MAX_TRAILING_EVENTS, false).then((result) => {
      if (!result.drained) this.destroyUpstream();
    });
  }

  /**
   * Reads the upstream to its end (at most `limit` events), feeding
   * `onEvent` when `observe` is set. Never throws.
   */
  private async readRest(limit: number, observe: boolean): Promise<{ drained: boolean; error?: GatewayError }> {
    try {
      for (let n = 0; n < limit; n++) {
        const result = await (this.pending ?? this.events.next());
        this.pending = undefined;
        if (result.done) return { drained: true };
        if (observe) this.notify(result.value);
      }
      return { drained: false };
    } catch (error) {
      return { drained: false, error: toGatewayError(error) };
    }
  }

  private destroyUpstream(): void {
    const upstream = this.options.upstream as { destroy?: (error?: Error) => void };
    if (typeof upstream.destroy === 'function') upstream.destroy();
    // Reaches the body's own iterator when the parser is paused between events.
    this.events.return(undefined).catch(noop);
    this.pending?.catch(noop);
  }

  private readonly onAbort = (): void => {
    this.abort();
  };

  private abort(): void {
    if (this.phase === 'done') return;
    const wasStreaming = this.phase === 'streaming';
    this.phase = 'done';
    this.queue.length = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiter?.(ABORT);
    if (!wasStreaming) {
      this.report({ status: 'aborted' });
      return;
    }
    if (this.options.onClientAbort === 'drain') {
      void this.readRest(Number.POSITIVE_INFINITY, true).then(({ drained, error }) => {
        if (!drained) this.destroyUpstream();
        this.report({ status: 'aborted', drained, ...(error ? { error } : {}) });
      });
      return;
    }
    this.destroyUpstream();
    this.report({ status: 'aborted' });
  }

  private finish(): void {
    this.phase = 'done';
    this.report({ status: this.status, ...(this.error ? { error: this.error } : {}) });
  }

  private report(outcome: Pick<RelayOutcome, 'status' | 'error' | 'drained'>): void {
    this.options.signal.removeEventListener('abort', this.onAbort);
    try {
      this.options.onEnd?.({
        ...outcome,
        events: this.eventCount,
        ...(this.firstEventAt === undefined ? {} : { firstEventAt: this.firstEventAt }),
        endedAt: performance.now(),
      });
    } catch {
      // A failing usage hook must not turn a delivered stream into an error.
    }
  }
}

/**
 * Relays an upstream SSE body to a client; the result is the `body` of an
 * `SseResponse` (send it with `SSE_HEADERS`).
 *
 * - Pull-based: one upstream event is read per chunk the client takes, so a
 *   slow client holds back the upstream (bounded memory).
 * - Passthrough (no `transform`): every event is re-emitted with the same
 *   name, id and data text, unknown event types included.
 * - Heartbeat (`heartbeatMs`, default 15 s): messages `event: ping`, chat an
 *   SSE comment, while the upstream is silent.
 * - Faults after the start (in-band upstream error, cut before the terminal
 *   event, idle time-out, oversized event) end the stream with one error
 *   event in the client's format, never a silent truncation.
 * - Client abort (`signal`, or `return()` on the iterator): with `abort`
 *   the upstream body is destroyed at once; with `drain` it is read to the
 *   end without writing. Timers are cleared either way.
 *
 * @example
 * const observer = createUsageObserver('messages');
 * const body = relaySse({ upstream: response.body, format: 'messages', signal: req.signal, onEvent: observer.observe });
 * return { type: 'sse', status: 200, headers: createSseHeaders(), body };
 */
export function relaySse(options: RelaySseOptions): AsyncIterableIterator<Uint8Array, undefined> {
  return new SseRelay(options);
}
