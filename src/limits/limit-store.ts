/**
 * The store behind the limits: one atomic `reserve` (all checks admit or
 * none changes) and one `settle` per request, with time taken from the
 * store so that instances with skewed clocks agree.
 *
 * Semantics every store implements (see memory-limit-store.ts, the
 * reference):
 * - `bucket`: a token bucket of `capacity` refilled at `capacity / windowMs`
 *   per ms; a missing key is a full bucket. Admits when `amount` fits;
 *   `settle` subtracts a (possibly negative) correction, capped at capacity.
 * - `concurrency`: a set of leases with expiry; admits when fewer than
 *   `limit` are unexpired; `settle` removes the lease; `renew` moves an
 *   unexpired lease's expiry to `leaseMs` from now (a request still running).
 * - `budget`: spend in the period `floor(now / periodMs)`; admits when
 *   spent + `amount` ≤ `limit`; `settle` adds a correction in the same period only.
 */

export type LimitCheck =
  | { kind: 'bucket'; key: string; capacity: number; windowMs: number; amount: number }
  | { kind: 'concurrency'; key: string; limit: number; leaseMs: number; leaseId: string }
  | { kind: 'budget'; key: string; limit: number; periodMs: number; amount: number };

/** The state of one check after `reserve` (after taking, when admitted). */
export interface CheckState {
  /** Units left (floor); for `budget` in the same units as the amounts. */
  remaining: number;
  /** Ms until the counter is back to its full limit (bucket), the period ends (budget); 0 for concurrency. */
  resetMs: number;
  /** Ms until this check would admit the request: 0 when it does, -1 when it never can (amount above the limit). */
  retryAfterMs: number;
  /** The budget's period index (for `settle`); 0 otherwise. */
  period: number;
}

export interface ReserveResult {
  /** True when every check admitted (and took its amount). */
  ok: boolean;
  /** The store's clock, ms since the epoch. */
  now: number;
  /** One per check, in order. */
  states: CheckState[];
}

export type LimitAdjustment =
  | { kind: 'bucket'; key: string; capacity: number; windowMs: number; delta: number }
  | { kind: 'concurrency'; key: string; leaseId: string }
  | { kind: 'budget'; key: string; periodMs: number; period: number; delta: number };

/** A concurrency lease of a request still running, to be extended by `leaseMs` from the store's now. */
export interface LeaseRenewal {
  key: string;
  leaseId: string;
  leaseMs: number;
}

/** A store for the gateway's limits. Methods may reject; the gateway bounds their time. */
export interface LimitStore {
  /** Checks every limit and, only when all admit, takes the amounts (atomically). */
  reserve(checks: readonly LimitCheck[]): Promise<ReserveResult>;
  /** Applies corrections (actual minus reserved) and releases concurrency leases. */
  settle(adjustments: readonly LimitAdjustment[]): Promise<void>;
  /**
   * Extends the leases of requests still running (a lease already released
   * or expired stays so). The gateway calls it every third of
   * `concurrencyLeaseSeconds` while requests run. Optional: a store without
   * it lets a request that runs longer than the lease stop counting.
   */
  renew?(leases: readonly LeaseRenewal[]): Promise<void>;
}
