/**
 * The SSE relay: upstream bytes → events → (translated) client events,
 * pulled at the client's pace, one client chunk per upstream read (all the
 * events that read completed; two when a large read starts by completing an
 * event held from the previous one, so its bulk goes out uncopied), so a
 * fast upstream costs one socket write per read and a trickling one still
 * gets every event out at once.
 *
 * Same-format relays forward the upstream's bytes as read when its events
 * are regular (`SseSplitter`); only the terminal and error events are looked
 * at, and events are decoded only for `onEvent` and translators.
 *
 * It is a hand-written async iterator rather than an async generator so that
 * a client abort can end a pending `next()` at once: a generator's `return()`
 * waits until the generator's own `await` on the upstream settles, which is
 * never for a silent upstream.
 */
import { performance } from 'node:perf_hooks';
import { GatewayError, toGatewayError } from '../errors.js';
import type { WireFormat } from '../types.js';
import { encodeStreamError, heartbeatFor } from './format-sse.js';
import { DEFAULT_SSE_MAX_BUFFER_SIZE } from './parse-sse.js';
import { RelayEventSink } from './relay-event-sink.js';
import { DEFAULT_HEARTBEAT_MS, type RelayOutcome, type RelaySseOptions } from './relay-options.js';
import { SseSplitter, type SseSink } from './sse-splitter.js';
import { StreamBoundsTracker } from './stream-bounds.js';
import { UpstreamReads, type Wake } from './upstream-reads.js';
import { errorForClient, redactCauses } from '../redact/redact-error.js';
import { resolveStreamBounds } from '../bounds/stream-bounds-options.js';

export type { ClientAbortPolicy, RelayOutcome, RelaySseOptions, SseByteSink, StreamTransform } from './relay-options.js';

/** The relayed stream: the client body, which a shutdown can end early. */
export interface RelayedStream extends AsyncIterableIterator<Uint8Array, undefined> {
  /** Ends the stream with `error` as its last event and aborts the upstream. */
  interrupt(error: GatewayError): void;
  /** Ends the stream at once, as if its client had left. */
  abandon(): void;
}
export { DEFAULT_HEARTBEAT_MS } from './relay-options.js';

/** Reads after the terminal event before the upstream is cut instead (keeps a finished relay cheap). */
const MAX_TRAILING_READS = 100;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
/** Shared by every stream (never written to): one buffer less per open stream. */
const HEARTBEATS: Record<WireFormat, Uint8Array> = { chat: Buffer.from(heartbeatFor('chat')), messages: Buffer.from(heartbeatFor('messages')) };

class SseRelay extends RelayEventSink implements AsyncIterableIterator<Uint8Array, undefined> {
  private readonly reads: UpstreamReads;
  private readonly splitter: SseSplitter;
  private readonly heartbeat: Uint8Array;
  private readonly queue: Uint8Array[] = [];
  private status: RelayOutcome['status'] = 'completed';
  private error: GatewayError | undefined;
  private readonly bounds: StreamBoundsTracker;
  /** A drain after the client left is under way (`phase` is already `done`). */
  private draining = false;
  /** The bound a drain passed: it ends the drain early. */
  private drainStop: GatewayError | undefined;

  constructor(options: RelaySseOptions) {
    super(options);
    this.reads = new UpstreamReads(options.upstream[Symbol.asyncIterator](), options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, this.onWake);
    this.splitter = new SseSplitter(options.maxBufferSize ?? DEFAULT_SSE_MAX_BUFFER_SIZE);
    this.heartbeat = HEARTBEATS[options.format];
    if (options.redactor !== undefined) options.transform?.useRedactor?.(options.redactor);
    this.bounds = new StreamBoundsTracker(resolveStreamBounds(options.bounds), this.name);
    // Started first: a client gone already leaves a drain, which the duration bound must stop too.
    this.bounds.start(this.onBoundPassed);
    if (options.signal.aborted) this.abort();
    else options.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The stream ran past `maxDurationMs`: it ends as a broken upstream's does (a drain stops). */
  private readonly onBoundPassed = (error: GatewayError): void => {
    if (this.phase === 'streaming') return this.interrupt(error);
    if (!this.draining) return;
    this.drainStop = error;
    this.destroyUpstream();
  };

  [Symbol.asyncIterator](): this {
    return this;
  }

  /**
   * Not an async function: a chunk already queued costs one resolved promise,
   * a wait one promise, settled by `onWake` (an async frame, or a `then` per
   * wait, cost more per event, and more again under async hooks).
   */
  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    try {
      this.options.onProgress?.();
      const ready = this.ready();
      return ready === undefined ? new Promise(this.startWait) : Promise.resolve(ready);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The pending `next()`'s settlers (one `next()` at a time, as the writers call it). */
  private resolveNext: ((result: IteratorResult<Uint8Array, undefined>) => void) | undefined;
  private rejectNext: ((error: unknown) => void) | undefined;

  /** Executor of a waiting `next()` (one function for the relay, not a closure per call). */
  private readonly startWait = (resolve: (result: IteratorResult<Uint8Array, undefined>) => void, reject: (error: unknown) => void): void => {
    this.resolveNext = resolve;
    this.rejectNext = reject;
    this.reads.wait();
  };

  /** What `next()` answers without waiting, if anything. */
  private ready(): IteratorResult<Uint8Array, undefined> | undefined {
    const chunk = this.queue.shift();
    if (chunk !== undefined) return { done: false, value: chunk };
    if (this.phase === 'done') return DONE;
    if (this.phase === 'closing') {
      this.finish();
      return DONE;
    }
    return undefined;
  }

  /** A wait ended: settles the pending `next()` with the next chunk, or waits again when the read produced nothing to send. */
  private readonly onWake = (wake: Wake): void => {
    let result: IteratorResult<Uint8Array, undefined> | undefined;
    let failed = false;
    let failure: unknown;
    try {
      result = this.resultOf(wake);
      if (result === undefined) return this.reads.wait();
    } catch (error) {
      failed = true;
      failure = error;
    }
    const resolve = this.resolveNext;
    const reject = this.rejectNext;
    this.resolveNext = undefined;
    this.rejectNext = undefined;
    if (failed) reject?.(failure);
    else resolve?.(result!);
  };

  /** What a wake gives the pending `next()`; `undefined` when the read produced nothing to send. */
  private resultOf(wake: Wake): IteratorResult<Uint8Array, undefined> | undefined {
    switch (wake.kind) {
      case 'heartbeat':
        return { done: false, value: this.heartbeat };
      case 'abort':
        if (this.interruption === undefined || this.phase !== 'streaming') return DONE;
        // A shutdown woke the wait: the stream ends with its error event.
        this.fail(this.interruption);
        break;
      case 'chunk':
        this.handleChunk(wake.chunk);
        break;
      case 'end':
        this.fail(new GatewayError('UPSTREAM_ERROR', `Upstream "${this.name}" ended the stream before it was complete.`));
        break;
      case 'failure':
        this.fail(toGatewayError(wake.error));
        break;
    }
    return this.ready();
  }

  /** Set by `interrupt()`: the error the stream ends with. */
  private interruption: GatewayError | undefined;

  /**
   * Ends the stream now (a shutdown): what was already read, then one
   * error event in the client's format; the upstream is aborted, and
   * `onEnd` reports `failed` once the client took that event.
   */
  interrupt(error: GatewayError): void {
    if (this.phase !== 'streaming') return;
    this.interruption = error;
    // A pending next() is woken (and answered with the error event); otherwise the next one takes it from the queue.
    if (this.resolveNext !== undefined) this.reads.abort();
    else this.fail(error);
  }

  /** Ends the stream at once, as a client that left does, without draining (`onEnd` reports `aborted` now). */
  abandon(): void {
    this.abort(false);
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

  /** Turns one upstream read into (at most) one client chunk, handling its events synchronously. */
  private handleChunk(chunk: Uint8Array): void {
    const passed = this.bounds.count(chunk.byteLength);
    if (passed !== undefined) {
      // The read that passes the bound is not relayed: the client gets what came within it, then the error.
      this.fail(passed);
      return;
    }
    if (this.options.onChunk !== undefined) this.chunk(this.options.onChunk);
    try {
      this.splitter.push(chunk, this);
    } catch (error) {
      this.fail(toGatewayError(error));
      return;
    }
    this.flushOutput();
  }

  private flushOutput(): void {
    this.output.takeInto(this.queue);
  }

  private chunk(onChunk: () => void): void {
    try {
      onChunk();
    } catch {
      // Same as onEvent: timing observers never break the stream.
    }
  }

  /** Ends the client stream with one error event in its format (after what the read produced so far). */
  protected fail(cause: GatewayError): void {
    // Causes are foreign text (undici's, a library's): redacted for the records; the client reads the error without named addresses.
    const error = redactCauses(cause, this.redactor);
    const seen = errorForClient(error, this.redactor);
    const { transform } = this.options;
    let chunks: Iterable<string | Uint8Array> | undefined;
    if (transform) {
      try {
        chunks = [...transform.error(seen)];
      } catch {
        chunks = undefined;
      }
    }
    this.flushOutput();
    this.addErrorEvents(chunks ?? [encodeStreamError(seen, this.options.format)]);
    this.flushOutput();
    this.destroyUpstream();
    this.reads.stopHeartbeat();
    this.phase = 'closing';
    this.status = 'failed';
    this.error = error;
  }

  /** The upstream said its last word: finish the client stream now, release the upstream in the background. */
  protected close(status: 'completed' | 'failed', error?: GatewayError): void {
    this.phase = 'closing';
    this.status = status;
    this.error = error;
    this.reads.stopHeartbeat();
    void this.readRest(MAX_TRAILING_READS, false).then((result) => {
      if (!result.drained) this.destroyUpstream();
    });
  }

  /**
   * Reads the upstream to its end (at most `limit` reads), feeding
   * `onEvent` when `observe` is set. Never throws.
   */
  private async readRest(limit: number, observe: boolean): Promise<{ drained: boolean; error?: GatewayError }> {
    const sink: SseSink = {
      onRaw: (raw) => {
        this.notify(this.observes(raw) ? raw.toEvent() : undefined);
        return true;
      },
      onParsed: (event) => {
        this.notify(event);
        return true;
      },
    };
    try {
      for (let n = 0; n < limit; n++) {
        const result = await this.reads.read();
        if (this.drainStop !== undefined) return { drained: false, error: this.drainStop };
        if (result.done) return { drained: true };
        if (observe) {
          this.drainStop = this.bounds.count(result.value.byteLength);
          if (this.drainStop !== undefined) return { drained: false, error: this.drainStop };
          this.options.onProgress?.();
          this.splitter.push(result.value, sink);
        }
      }
      return { drained: false };
    } catch (error) {
      return { drained: false, error: this.drainStop ?? toGatewayError(error) };
    }
  }

  private destroyUpstream(): void {
    const upstream = this.options.upstream as { destroy?: (error?: Error) => void };
    if (typeof upstream.destroy === 'function') upstream.destroy();
    this.reads.release();
  }

  private readonly onAbort = (): void => {
    this.abort();
  };

  private abort(drain = this.options.onClientAbort === 'drain'): void {
    if (this.phase === 'done') return;
    const wasStreaming = this.phase === 'streaming';
    this.phase = 'done';
    this.queue.length = 0;
    this.reads.abort();
    if (!wasStreaming) {
      this.report({ status: 'aborted' });
      return;
    }
    if (drain) {
      this.draining = true;
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
    this.bounds.stop();
    this.draining = false;
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
 * - Pull-based: one upstream read per chunk the client takes (the chunk holds
 *   every event that read completed), so a slow client holds back the
 *   upstream (bounded memory).
 * - Passthrough (no `transform`): every event is re-emitted with the same
 *   name, id and data text, unknown event types included; regular events
 *   (`event: `/`data: ` lines, LF line ends) go out as the upstream's bytes.
 * - Heartbeat (`heartbeatMs`, default 15 s): messages `event: ping`, chat an
 *   SSE comment, while the upstream is silent.
 * - Faults after the start (in-band upstream error, cut before the terminal
 *   event, idle time-out, oversized event, a stream past its `bounds` of
 *   size or duration) end the stream with one error event in the client's
 *   format, never a silent truncation.
 * - Client abort (`signal`, or `return()` on the iterator): with `abort`
 *   the upstream body is destroyed at once; with `drain` it is read to the
 *   end without writing. Timers are cleared either way.
 * - Shutdown (`interrupt(error)`): the stream ends with one error event in
 *   the client's format and the upstream is aborted; `abandon()` ends it at
 *   once, as a client that left.
 *
 * @example
 * const observer = createUsageObserver('messages');
 * const body = relaySse({ upstream: response.body, format: 'messages', signal: req.signal, onEvent: observer.observe });
 * return { type: 'sse', status: 200, headers: createSseHeaders(), body };
 */
export function relaySse(options: RelaySseOptions): RelayedStream {
  return new SseRelay(options);
}
