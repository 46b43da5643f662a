/**
 * The end of an admitted request: collects the usage of its upstream calls
 * (one record per call; `n` for a fanned-out `n > 1`) and, once all are in
 * or the request failed, corrects the store to the actual usage in one
 * settle: token buckets and budgets by actual minus reserved, concurrency
 * released. Failed calls count 0 tokens. Runs once; later records are ignored.
 *
 * @internal
 */
import type { TokenUsage } from '../usage.js';
import type { GuardedStore } from './guarded-store.js';
import type { LeaseRenewal, LimitAdjustment, LimitCheck, LimitStore, ReserveResult } from './limit-store.js';
import { costMicros, countedTokens, type CallEstimate, type LimitPlan } from './plan-limits.js';

export interface Settlement {
  /** One upstream call ended with `status` and the usage it reported. */
  record(status: number, usage: TokenUsage, aborted: boolean): void;
  /** Settles now with what was recorded (the request failed or the client left). */
  finish(): void;
  readonly settled: boolean;
  /** The store holding the reservation. */
  readonly store: LimitStore;
  /** From now on, leases are renewed only when the answer moved on (`touch`) since the last renewal: a stream. */
  renewOnlyOnProgress(): void;
  /** The answer moved on (a stream read by its client, or drained after it left). */
  touch(): void;
  /**
   * The request's concurrency leases, as renewals, when they are due (the last renewal, or the
   * reservation, at least `minAgeMs` before `now`, and progress since, where that is required);
   * `undefined` otherwise. Counts as renewed.
   */
  dueRenewal(now: number, minAgeMs: number): LeaseRenewal[] | undefined;
}

/**
 * The requests whose leases the limiter renews, as a list threaded through
 * the settlements themselves: joining and leaving cost no hashing and no
 * allocation (a `Set` of fresh objects costs about half a µs per request).
 */
export class RunningRequests {
  private head: RequestSettlement | undefined;

  /** @internal */
  add(settlement: RequestSettlement): void {
    settlement.next = this.head;
    if (this.head) this.head.previous = settlement;
    this.head = settlement;
  }

  /** @internal */
  remove(settlement: RequestSettlement): void {
    const { previous, next } = settlement;
    if (previous) previous.next = next;
    else if (this.head === settlement) this.head = next;
    else return;
    if (next) next.previous = previous;
    settlement.previous = settlement.next = undefined;
  }

  forEach(visit: (settlement: Settlement) => void): void {
    for (let at = this.head; at !== undefined; at = at.next) visit(at);
  }
}

/** A class, not closures: one object per admitted request, its usage totals in its own fields. */
class RequestSettlement implements Settlement {
  input = 0;
  cacheRead = 0;
  cacheWrite = 0;
  output = 0;
  /** Neighbours in {@link RunningRequests}. */
  previous: RequestSettlement | undefined = undefined;
  next: RequestSettlement | undefined = undefined;
  private recorded = 0;
  settled = false;
  private renewedAt = Date.now();
  private progressRequired = false;
  private progressed = false;

  constructor(
    private readonly guarded: GuardedStore,
    readonly store: LimitStore,
    private readonly plan: LimitPlan,
    private readonly reserve: ReserveResult,
    private readonly estimate: CallEstimate | undefined,
    private readonly calls: number,
    private readonly onSettled: (() => void) | undefined,
    /** The limiter's requests holding leases: this one leaves them when settled. */
    private readonly running: RunningRequests | undefined,
  ) {}

  renewOnlyOnProgress(): void {
    this.progressRequired = true;
  }

  touch(): void {
    this.progressed = true;
  }

  dueRenewal(now: number, minAgeMs: number): LeaseRenewal[] | undefined {
    if (now - this.renewedAt < minAgeMs || (this.progressRequired && !this.progressed)) return undefined;
    this.renewedAt = now;
    this.progressed = false;
    const out: LeaseRenewal[] = [];
    for (const check of this.plan.checks) {
      if (check.kind === 'concurrency') out.push({ key: check.key, leaseId: check.leaseId, leaseMs: check.leaseMs });
    }
    return out;
  }

  record(status: number, usage: TokenUsage, aborted: boolean): void {
    if (this.settled) return;
    this.recorded++;
    if (status >= 200 && status < 300) {
      const { estimate } = this;
      // A figure the upstream did not report is taken as estimated (output: none after an abort).
      this.input += usage.inputTokens ?? (usage.cacheReadInputTokens === undefined ? estimate?.inputTokens ?? 0 : 0);
      this.cacheRead += usage.cacheReadInputTokens ?? 0;
      this.cacheWrite += usage.cacheCreationInputTokens ?? 0;
      const perCall = estimate ? (estimate.outputTokens * estimate.choices) / Math.max(1, this.calls) : 0;
      // After a client abort the upstream's final output count has not arrived (a messages stream
      // reports 1 at its start): it bills what it generated, which the gateway cannot see, so the
      // reserved output stays charged. Charging what was reported so far would let a client
      // escape output limits by leaving just before the end.
      this.output += aborted ? Math.max(usage.outputTokens ?? 0, perCall) : usage.outputTokens ?? perCall;
    }
    if (this.recorded >= this.calls) this.finish();
  }

  finish(): void {
    if (this.settled) return;
    this.settled = true;
    this.running?.remove(this);
    this.onSettled?.();
    this.guarded.settle(this.store, this.adjustments());
  }

  private adjustments(): LimitAdjustment[] {
    const { meters, checks } = this.plan;
    const out: LimitAdjustment[] = [];
    for (let index = 0; index < meters.length; index++) {
      const meter = meters[index]!;
      const check = checks[index] as LimitCheck;
      if (meter.kind === 'tokens' && check.kind === 'bucket') {
        const delta = countedTokens(meter.count, this.input + this.cacheRead + this.cacheWrite, this.output) - meter.reserved;
        if (delta !== 0) out.push({ kind: 'bucket', key: check.key, capacity: check.capacity, windowMs: check.windowMs, delta });
      } else if (meter.kind === 'concurrent' && check.kind === 'concurrency') {
        // The check names its lease: it is the release (no copy per request).
        out.push(check);
      } else if (meter.kind === 'budget' && check.kind === 'budget') {
        const delta = costMicros(meter.price, this) - meter.reserved;
        if (delta !== 0) out.push({ kind: 'budget', key: check.key, periodMs: check.periodMs, period: this.reserve.states[index]!.period, delta });
      }
    }
    return out;
  }
}

export function createSettlement(
  guarded: GuardedStore,
  store: LimitStore,
  plan: LimitPlan,
  reserve: ReserveResult,
  estimate: CallEstimate | undefined,
  calls: number,
  onSettled?: () => void,
  running?: RunningRequests,
): Settlement {
  const settlement = new RequestSettlement(guarded, store, plan, reserve, estimate, calls, onSettled, running);
  running?.add(settlement);
  return settlement;
}
