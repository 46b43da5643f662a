/**
 * The per-request deadline: one clock across every attempt, retry wait and
 * fallback of a model call, so an upstream that never answers costs the
 * client about one first-byte time-out, not one per attempt.
 *
 * @internal
 */
import { performance } from 'node:perf_hooks';
import { GatewayError } from '../errors.js';
import type { AbortSource } from '../upstreams/abort-source.js';

/**
 * Default of `GatewayOptions.requestTimeoutMs`: 300000 ms, the default
 * first-byte time-out of one upstream attempt.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;

type AbortListener = () => void;

/** A running deadline. */
export interface RequestDeadline {
  /**
   * Aborted when the parent signal aborts or the deadline passes (reason: a
   * 504 `GatewayError`). A real `AbortSignal`, made on first read: upstreams
   * that are handed `source` instead never pay for one.
   */
  readonly signal: AbortSignal;
  /** The same aborts as `signal`, without an `AbortSignal` behind them. */
  readonly source: AbortSource;
  /** `performance.now()` when it fires (`Infinity` when disabled). */
  readonly at: number;
  /** Stops the clock (the answer is complete, or a stream has started); the parent signal still propagates. */
  clear(): void;
}

function expire(deadline: Deadline, ms: number): void {
  deadline.abort(new GatewayError('UPSTREAM_TIMEOUT', `No complete upstream answer within this gateway's ${ms} ms request time-out (requestTimeoutMs).`));
}

/**
 * A deadline without an `AbortSignal` of its own: every request in flight
 * holds one until its answer starts, and an `AbortSignal` (an EventTarget in
 * dictionary mode) costs several times this object in time and live heap,
 * which a burst of opens multiplies by the garbage collector's work.
 */
class Deadline implements RequestDeadline, AbortSource {
  aborted = false;
  reason: unknown = undefined;
  readonly at: number;
  private listeners: AbortListener[] | undefined;
  private controller: AbortController | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(parent: AbortSignal, ms: number) {
    this.at = performance.now() + ms;
    // Passing `this` and `ms` as timer arguments: no closure per request.
    this.timer = setTimeout(expire, ms, this, ms);
    // A deadline must never keep a process alive on its own.
    this.timer.unref();
    if (parent.aborted) this.abort(parent.reason);
    else parent.addEventListener('abort', this, { once: true });
  }

  get source(): AbortSource {
    return this;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** The parent signal's `abort` event (an EventTarget listener object: no bound function per request). */
  handleEvent(event: Event): void {
    this.abort((event.target as AbortSignal).reason);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    clearTimeout(this.timer);
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an EventTarget does: a throwing listener neither stops the others nor reaches the caller.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  addEventListener(type: 'abort', listener: AbortListener): void {
    if (type !== 'abort' || this.aborted) return;
    if (this.listeners === undefined) this.listeners = [listener];
    else if (!this.listeners.includes(listener)) this.listeners.push(listener);
  }

  removeEventListener(type: 'abort', listener: AbortListener): void {
    if (type !== 'abort' || this.listeners === undefined) return;
    const index = this.listeners.indexOf(listener);
    if (index !== -1) this.listeners.splice(index, 1);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Starts a deadline of `ms` milliseconds under `parent` (the client's
 * signal). `ms` of 0 or less, or not finite, disables the clock and
 * returns the parent signal itself.
 */
export function startDeadline(parent: AbortSignal, ms: number): RequestDeadline {
  if (!(ms > 0) || !Number.isFinite(ms)) return { signal: parent, source: parent, at: Infinity, clear() {} };
  return new Deadline(parent, ms);
}

/** The gateway's `requestTimeoutMs`, with its default. */
export function requestTimeoutOf(options: { requestTimeoutMs?: number }): number {
  return options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
}
