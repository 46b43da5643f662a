/**
 * Admission control: the model calls one gateway instance serves at once
 * (requests in progress and open streams), a bounded queue in front of
 * them, and the refusals past both. Also what a shutdown needs: stop
 * admitting, wait for the calls to end, end the streams still open.
 *
 * Without the `admission` option there is no limit, but calls are still
 * counted, so a shutdown knows what it waits for.
 *
 * @internal
 */
import type { GatewayError } from '../errors.js';
import type { AbortSource } from '../signals/abort-source.js';
import type { WireFormat } from '../types.js';
import type { AdmissionOptions } from './admission-options.js';
import { AdmissionQueue } from './admission-queue.js';
import { CallSlot } from './call-slot.js';
import { overloadedError, SHUTTING_DOWN } from './overloaded.js';

export type { AdmissionOptions } from './admission-options.js';

/** Why a call was refused (the label of the refusals counter). */
export type RefusalReason = 'full' | 'queue_timeout' | 'shutting_down';

/** Observers of the count (metrics). They must not throw. */
export interface AdmissionEvents {
  onChange?(inFlight: number): void;
  onRefused?(reason: RefusalReason): void;
}

export class Admission {
  private readonly active = new Set<CallSlot>();
  private readonly queue: AdmissionQueue | undefined;
  private readonly max: number;
  private readonly retryAfterSeconds: number;
  private stopping = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly options: AdmissionOptions | undefined,
    private readonly events: AdmissionEvents = {},
  ) {
    this.max = options?.maxInFlight ?? Number.POSITIVE_INFINITY;
    const queueMs = options?.queueMs ?? 0;
    if (options && queueMs > 0) this.queue = new AdmissionQueue(options.maxQueued ?? options.maxInFlight, queueMs);
    this.retryAfterSeconds = Math.max(1, Math.ceil(queueMs / 1000));
  }

  /** Calls holding a place (requests in progress and open streams). */
  get inFlight(): number {
    return this.active.size;
  }

  /** Calls waiting for a place. */
  get queued(): number {
    return this.queue?.size ?? 0;
  }

  get stopped(): boolean {
    return this.stopping;
  }

  /**
   * A place for a call from a `format` client: at once when one is free,
   * after a wait in the queue (`queueMs`), or a thrown (or rejected)
   * `overloaded` refusal in the caller's terms.
   */
  enter(format: WireFormat, signal: AbortSource): CallSlot | Promise<CallSlot> {
    if (this.stopping) throw this.refuse(format, 'shutting_down');
    if (this.active.size < this.max) return this.take();
    if (this.queue?.hasRoom) {
      return this.queue.wait(signal, this.take, {
        timedOut: () => this.refuse(format, 'queue_timeout'),
        left: () => overloadedError(format, 'The client left while its call waited for a place.', this.retryAfterSeconds),
        stopped: () => this.refuse(format, 'shutting_down'),
      });
    }
    throw this.refuse(format, 'full');
  }

  /** Refuses new calls from now on (and every queued one). */
  stop(): void {
    this.stopping = true;
    this.queue?.refuseAll();
  }

  /** Resolves true once no call holds a place, false after `ms` if some still do. */
  idleWithin(ms: number): Promise<boolean> {
    if (this.active.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, ms);
      this.idleWaiters.push(done);
    });
  }

  /** Ends every open stream with `error` as its last event. */
  interruptAll(error: GatewayError): void {
    for (const slot of [...this.active]) slot.interrupt(error);
  }

  /** Ends every open stream at once. */
  abandonAll(): void {
    for (const slot of [...this.active]) slot.abandon();
  }

  private readonly take = (): CallSlot => {
    const slot = new CallSlot(this.free);
    this.active.add(slot);
    this.events.onChange?.(this.active.size);
    return slot;
  };

  private readonly free = (slot: CallSlot): void => {
    if (!this.active.delete(slot)) return;
    // The freed place goes to the oldest waiter, if any.
    if (!this.stopping && this.queue?.next()) return;
    this.events.onChange?.(this.active.size);
    if (this.active.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) waiter();
  };

  private refuse(format: WireFormat, reason: RefusalReason): GatewayError {
    this.events.onRefused?.(reason);
    if (reason === 'shutting_down') return overloadedError(format, SHUTTING_DOWN, 1);
    const limit = `this gateway instance's limit of ${this.options?.maxInFlight ?? 0} model calls at once (admission.maxInFlight)`;
    if (reason === 'queue_timeout') return overloadedError(format, `Over capacity: no place freed within ${this.options?.queueMs ?? 0} ms under ${limit}; retry shortly.`, this.retryAfterSeconds);
    return overloadedError(format, `Over capacity: ${limit} is reached; retry shortly.`, this.retryAfterSeconds);
  }
}
