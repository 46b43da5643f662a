/**
 * The per-request deadline: one clock across every attempt, retry wait and
 * fallback of a model call, so an upstream that never answers costs the
 * client about one first-byte time-out, not one per attempt.
 *
 * @internal
 */
import { performance } from 'node:perf_hooks';
import { GatewayError } from '../errors.js';
import { type AbortSource, AbortTrigger, signalOf } from './abort-source.js';

/**
 * Default of `GatewayOptions.requestTimeoutMs`: 300000 ms, the default
 * first-byte time-out of one upstream attempt.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;

/** A running deadline. */
export interface RequestDeadline {
  /**
   * Aborted when the parent aborts or the deadline passes (reason: a 504
   * `GatewayError`). A real `AbortSignal`, made on first read: upstreams
   * handed `source` instead never pay for one.
   */
  readonly signal: AbortSignal;
  /** The same aborts as `signal`, without an `AbortSignal` behind them. */
  readonly source: AbortSource;
  /** `performance.now()` when it fires (`Infinity` when disabled). */
  readonly at: number;
  /** Stops the clock (a stream has started); the parent still propagates, as a custom upstream may follow `call.signal` to the stream's end. */
  clear(): void;
  /**
   * The call is over (its answer read whole, refused, or its stream ended):
   * stops the clock and stops listening to the parent, so a signal shared
   * by many `handle()` calls does not collect one listener per request.
   */
  release(): void;
  /**
   * The client left while the answer streamed: aborts (so `signal` fires for
   * a custom upstream that follows it to the stream's end) and stops
   * listening, as `release` does. For where the relay hears of the client
   * before the parent does: Koa stops the body before the response closes.
   */
  abandon(): void;
  /** Aborts the call now with `reason` (a shutdown whose grace period ended). Without a clock, the call runs on to its end. */
  cancel(reason: unknown): void;
}

function expire(deadline: Deadline, ms: number): void {
  deadline.abort(new GatewayError('UPSTREAM_TIMEOUT', `No complete upstream answer within this gateway's ${ms} ms request time-out (requestTimeoutMs).`));
}

/** A deadline without an `AbortSignal` of its own (see `abort-source.ts` for why). */
class Deadline extends AbortTrigger implements RequestDeadline {
  readonly at: number;
  private readonly timer: NodeJS.Timeout;
  private parent: AbortSource | undefined;

  constructor(parent: AbortSource, ms: number) {
    super();
    this.at = performance.now() + ms;
    // `this` and `ms` as timer arguments: no closure per request.
    this.timer = setTimeout(expire, ms, this, ms);
    // A deadline must never keep a process alive on its own.
    this.timer.unref();
    if (parent.aborted) {
      this.abort(parent.reason);
      return;
    }
    this.parent = parent;
    parent.addEventListener('abort', this.onParentAbort, { once: true });
  }

  private readonly onParentAbort = (): void => {
    const parent = this.parent;
    this.parent = undefined;
    if (parent !== undefined) this.abort(parent.reason);
  };

  get source(): AbortSource {
    return this;
  }

  override abort(reason?: unknown): void {
    clearTimeout(this.timer);
    super.abort(reason);
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  release(): void {
    clearTimeout(this.timer);
    const parent = this.parent;
    this.parent = undefined;
    parent?.removeEventListener('abort', this.onParentAbort);
  }

  cancel(reason: unknown): void {
    this.release();
    this.abort(reason);
  }

  abandon(): void {
    this.release();
    this.abort();
  }
}

/**
 * Starts a deadline of `ms` milliseconds under `parent` (the client's
 * signal or source). `ms` of 0 or less, or not finite, disables the clock:
 * the parent itself is then the source (and its signal the signal).
 */
export function startDeadline(parent: AbortSource, ms: number): RequestDeadline {
  if (!(ms > 0) || !Number.isFinite(ms)) return new NoDeadline(parent);
  return new Deadline(parent, ms);
}

/** No clock: the parent is the source (a class, not a literal with a getter: no hidden class per request). */
class NoDeadline implements RequestDeadline {
  readonly at = Infinity;

  constructor(readonly source: AbortSource) {}

  get signal(): AbortSignal {
    return signalOf(this.source);
  }

  clear(): void {}

  release(): void {}

  /** The source is the client's own, which aborts when the response closes. */
  abandon(): void {}

  /** The source is the client's own: nothing of the gateway's can abort it. */
  cancel(): void {}
}

/** The gateway's `requestTimeoutMs`, with its default. */
export function requestTimeoutOf(options: { requestTimeoutMs?: number }): number {
  return options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
}
