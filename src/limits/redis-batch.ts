/**
 * One call of the Redis store's apply script (redis-scripts.ts): the settles,
 * renewals and reservations queued over two turns of the event loop, packed as
 * the script reads them. Each counter is named once in KEYS; the numbers go in
 * one space-separated argument, the lease ids (the only free-form text) in
 * arguments of their own.
 *
 * @internal
 */
import type { CheckState, LeaseRenewal, LimitAdjustment, LimitCheck, ReserveResult } from './limit-store.js';

/** A reservation waiting for its batch's reply. */
interface WaitingReserve {
  count: number;
  resolve: (result: ReserveResult) => void;
  reject: (error: unknown) => void;
}

/** A settle or renewal waiting for its batch's call. */
interface WaitingSettle {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A number as the script reads it (Lua reads 1e999 as infinity; NaN, never meaningful, as 0). */
function number(value: number): string {
  if (Number.isFinite(value)) return String(value);
  return value === Infinity ? '1e999' : value === -Infinity ? '-1e999' : '0';
}

export class RedisBatch {
  /** KEYS of the call: each counter once. */
  readonly keys: string[] = [];
  private readonly keyIndex = new Map<string, number>();
  /** ARGV[2..]: lease ids. */
  private readonly leases: string[] = [];
  /** The operations (reservations, settles, renewals), in the order they were made. */
  private words = '';
  private operations = 0;
  private readonly settled: WaitingSettle[] = [];
  private readonly reservations: WaitingReserve[] = [];

  constructor(private readonly prefix: string) {}

  /** The 1-based KEYS index of counter `key`. */
  private key(key: string): number {
    let index = this.keyIndex.get(key);
    if (index === undefined) {
      index = this.keys.push(this.prefix + key);
      this.keyIndex.set(key, index);
    }
    return index;
  }

  /** The ARGV index of a lease id. */
  private lease(leaseId: string): number {
    return this.leases.push(leaseId) + 1;
  }

  /** Queues a reservation; the promise settles with the batch's reply. */
  reserve(checks: readonly LimitCheck[]): Promise<ReserveResult> {
    let words = ` ${checks.length}`;
    for (const check of checks) {
      const key = this.key(check.key);
      switch (check.kind) {
        case 'bucket':
          words += ` ${key} b ${number(check.capacity)} ${number(check.windowMs)} ${number(check.amount)}`;
          break;
        case 'concurrency':
          words += ` ${key} c ${number(check.limit)} ${number(check.leaseMs)} ${this.lease(check.leaseId)}`;
          break;
        case 'budget':
          words += ` ${key} q ${number(check.limit)} ${number(check.periodMs)} ${number(check.amount)}`;
      }
    }
    this.words += ` r${words}`;
    this.operations++;
    return new Promise<ReserveResult>((resolve, reject) => this.reservations.push({ count: checks.length, resolve, reject }));
  }

  /** Queues adjustments, applied after what was queued before them and before what comes after. */
  settle(adjustments: readonly LimitAdjustment[]): Promise<void> {
    this.words += ` s ${adjustments.length}`;
    for (const adjustment of adjustments) {
      const key = this.key(adjustment.key);
      switch (adjustment.kind) {
        case 'bucket':
          this.words += ` ${key} b ${number(adjustment.capacity)} ${number(adjustment.windowMs)} ${number(adjustment.delta)}`;
          break;
        case 'concurrency':
          this.words += ` ${key} c ${this.lease(adjustment.leaseId)} 0 0`;
          break;
        case 'budget':
          this.words += ` ${key} q ${number(adjustment.periodMs)} ${number(adjustment.period)} ${number(adjustment.delta)}`;
      }
    }
    this.operations++;
    return new Promise<void>((resolve, reject) => this.settled.push({ resolve, reject }));
  }

  /** Queues lease renewals (the store's `renew`): done when the call is. */
  renew(leases: readonly LeaseRenewal[]): Promise<void> {
    this.words += ` n ${leases.length}`;
    for (const lease of leases) this.words += ` ${this.key(lease.key)} ${this.lease(lease.leaseId)} ${number(lease.leaseMs)}`;
    this.operations++;
    return new Promise<void>((resolve, reject) => this.settled.push({ resolve, reject }));
  }

  /** Operations queued. */
  get size(): number {
    return this.operations;
  }

  /** ARGV of the call. */
  args(): string[] {
    return [`${this.operations}${this.words}`, ...this.leases];
  }

  /** Hands every waiter its part of the reply `{ now, per reservation: ok, 4 values per check }`. */
  deliver(reply: unknown): void {
    for (const waiter of this.settled) waiter.resolve();
    const reservations = this.reservations;
    let expected = 1;
    for (const waiting of reservations) expected += 1 + waiting.count * 4;
    if (!Array.isArray(reply) || reply.length !== expected) {
      this.fail(new Error('redisLimitStore: unexpected reply from the apply script.'));
      return;
    }
    const now = Number(reply[0]);
    let at = 1;
    for (const waiting of reservations) {
      const ok = Number(reply[at]) === 1;
      const states: CheckState[] = [];
      for (let i = 0; i < waiting.count; i++) {
        const from = at + 1 + i * 4;
        states.push({ remaining: Number(reply[from]), resetMs: Number(reply[from + 1]), retryAfterMs: Number(reply[from + 2]), period: Number(reply[from + 3]) });
      }
      at += 1 + waiting.count * 4;
      waiting.resolve({ now, ok, states });
    }
  }

  /** Rejects every waiter (settles already resolved by `deliver` stay so). */
  fail(error: unknown): void {
    for (const waiter of this.settled) waiter.reject(error);
    for (const waiting of this.reservations) waiting.reject(error);
  }
}
