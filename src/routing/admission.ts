/**
 * Admission control: the model calls one gateway instance serves at once
 * (requests in progress and open streams), the share of them one principal
 * may hold, a bounded queue in front of them (in which one principal may
 * have at most its share waiting), and the refusals past these. Also what a
 * shutdown needs: stop admitting, wait for the calls to end, end the
 * streams still open.
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
import { defaultMaxPerPrincipal } from './admission-options.js';
import { AdmissionQueue, type PlacesHeld } from './admission-queue.js';
import { CallSlot } from './call-slot.js';
import { overloadedError, SHUTTING_DOWN } from './overloaded.js';

export type { AdmissionOptions } from './admission-options.js';

/**
 * Why a call was refused (the label of the refusals counter). `share_full`:
 * the caller's share (`maxPerPrincipal`) of places, or of waiting calls.
 */
export type RefusalReason = 'full' | 'share_full' | 'queue_timeout' | 'shutting_down';

/** Observers of the count (metrics). They must not throw. */
export interface AdmissionEvents {
  onChange?(inFlight: number): void;
  onRefused?(reason: RefusalReason): void;
}

export class Admission {
  private readonly active = new Set<CallSlot>();
  private readonly queue: AdmissionQueue | undefined;
  private readonly max: number;
  /** Most places one principal holds; infinite without the option (nothing is counted per principal then). */
  private readonly share: number;
  /** Places held per principal (only with the option); principals holding none are not kept. */
  private readonly held = new Map<string, number>();
  private readonly retryAfterSeconds: number;
  private stopping = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly options: AdmissionOptions | undefined,
    private readonly events: AdmissionEvents = {},
  ) {
    this.max = options?.maxInFlight ?? Number.POSITIVE_INFINITY;
    this.share = options ? (options.maxPerPrincipal ?? defaultMaxPerPrincipal(options.maxInFlight)) : Number.POSITIVE_INFINITY;
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

  /** Places `principal` holds now. */
  heldBy(principal: string): number {
    return this.held.get(principal) ?? 0;
  }

  /**
   * A place for a call of `principal` (its id) from a `format` client: at
   * once when one is free and the principal is under its share, after a wait
   * in the queue (`queueMs`), or a thrown (or rejected) `overloaded`
   * refusal in the caller's terms.
   *
   * A principal may have at most its share (`maxPerPrincipal`) of calls
   * waiting, beside the places it holds; past that it is refused at once
   * (`share_full`). The queue is shared: without this bound one caller
   * could fill it, and every other caller would be refused as if the
   * instance were full. The bound is the share itself because no more of a
   * principal's waiters can take a place in one turn of its held calls, and
   * because, like the share of places, it leaves a second principal room in
   * the queue with the defaults (half of `maxQueued = maxInFlight`, rounded
   * up). A gateway with one principal that gives it every place
   * (`maxPerPrincipal: maxInFlight`) keeps the whole default queue for it.
   */
  enter(format: WireFormat, signal: AbortSource, principal: string): CallSlot | Promise<CallSlot> {
    if (this.stopping) throw this.refuse(format, 'shutting_down', principal);
    const underShare = this.places.mayTake(principal);
    if (underShare && this.active.size < this.max) return this.take(principal);
    if (this.queue && this.queue.waitingBy(principal) >= this.share) throw this.refuseQueueShare(format);
    if (this.queue?.hasRoom) {
      return this.queue.wait(principal, signal, () => this.take(principal), {
        timedOut: () => this.refuse(format, 'queue_timeout', principal),
        left: () => overloadedError(format, 'The client left while its call waited for a place.', this.retryAfterSeconds),
        stopped: () => this.refuse(format, 'shutting_down', principal),
      });
    }
    throw this.refuse(format, this.shareHoldsBack(principal) ? 'share_full' : 'full', principal);
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

  /** The counts the queue chooses by. */
  private readonly places: PlacesHeld = {
    heldBy: (principal) => this.heldBy(principal),
    mayTake: (principal) => this.share === Number.POSITIVE_INFINITY || this.heldBy(principal) < this.share,
  };

  /** Whether the principal's share, not the instance's limit, keeps it out: places are free, but not for it. */
  private shareHoldsBack(principal: string): boolean {
    return this.active.size < this.max && !this.places.mayTake(principal);
  }

  private take(principal: string): CallSlot {
    const slot = new CallSlot(this.free, principal);
    this.active.add(slot);
    if (this.options) this.held.set(principal, this.heldBy(principal) + 1);
    this.events.onChange?.(this.active.size);
    return slot;
  }

  private readonly free = (slot: CallSlot): void => {
    if (!this.active.delete(slot)) return;
    if (this.options) {
      const left = this.heldBy(slot.principal) - 1;
      if (left > 0) this.held.set(slot.principal, left);
      else this.held.delete(slot.principal);
    }
    // The freed place goes to the waiter whose principal holds the fewest places, if any may take it.
    if (!this.stopping && this.queue?.next(this.places)) return;
    this.events.onChange?.(this.active.size);
    if (this.active.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) waiter();
  };

  /** A principal with its share of calls already waiting: refused, counted with the share refusals. */
  private refuseQueueShare(format: WireFormat): GatewayError {
    this.events.onRefused?.('share_full');
    return overloadedError(
      format,
      `Over capacity: this caller already has ${this.share} calls waiting for a place, as many as its share of ${this.share} model calls at once (admission.maxPerPrincipal) lets it queue, while other callers are still served; retry shortly.`,
      this.retryAfterSeconds,
    );
  }

  private refuse(format: WireFormat, reason: RefusalReason, principal: string): GatewayError {
    this.events.onRefused?.(reason);
    if (reason === 'shutting_down') return overloadedError(format, SHUTTING_DOWN, 1);
    // A call that waited names what held it back when it gave up: its share, or the whole instance.
    const share = reason === 'share_full' || (reason === 'queue_timeout' && this.shareHoldsBack(principal));
    const limit = share
      ? `this caller's share of ${this.share} model calls at once (admission.maxPerPrincipal) is full, while other callers are still served`
      : `this gateway instance's limit of ${this.options?.maxInFlight ?? 0} model calls at once (admission.maxInFlight) is reached`;
    if (reason === 'queue_timeout') return overloadedError(format, `Over capacity: no place freed within ${this.options?.queueMs ?? 0} ms; ${limit}; retry shortly.`, this.retryAfterSeconds);
    return overloadedError(format, `Over capacity: ${limit}; retry shortly.`, this.retryAfterSeconds);
  }
}
