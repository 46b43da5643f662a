/**
 * The default store: counters in this process's memory (one gateway
 * instance). Expired counters are dropped as they are touched and by a
 * sweep every minute, so idle principals cost nothing; live ones are capped
 * (see {@link MAX_COUNTERS}).
 */
import { BoundedMap } from '../bounded-map.js';
import type { CheckState, LeaseRenewal, LimitAdjustment, LimitCheck, LimitStore, ReserveResult } from './limit-store.js';

/**
 * A store that can also answer synchronously (the in-memory one): the
 * limiter skips the promise and its microtask on every request.
 *
 * @internal
 */
export interface SyncLimitStore extends LimitStore {
  reserveNow(checks: readonly LimitCheck[]): ReserveResult;
  settleNow(adjustments: readonly LimitAdjustment[]): void;
  renewNow(leases: readonly LeaseRenewal[]): void;
}

/** @internal */
export function isSyncStore(store: LimitStore): store is SyncLimitStore {
  return typeof (store as Partial<SyncLimitStore>).reserveNow === 'function' && typeof (store as Partial<SyncLimitStore>).settleNow === 'function';
}

interface Bucket { level: number; at: number; expiresAt: number }
/**
 * `ordered`: every lease was added with an expiry no earlier than all before it (one lease length,
 * a clock that moves forward: the usual case), so the oldest lease left is the next to expire and
 * checks before `due` (its expiry) can skip walking the leases. Otherwise every check walks them.
 */
interface Leases { leases: Map<string, number>; expiresAt: number; due: number; ordered: boolean }
interface Spend { period: number; spent: number; expiresAt: number }

/** Adds a lease at the end of `entry`'s leases, keeping `ordered`, the entry's expiry and `due` (a lower bound) right. */
function placeLease(entry: Leases, leaseId: string, expiresAt: number): void {
  entry.leases.set(leaseId, expiresAt);
  if (expiresAt < entry.expiresAt) entry.ordered = false;
  else entry.expiresAt = expiresAt;
  if (expiresAt < entry.due) entry.due = expiresAt;
}

type Entry = Bucket | Leases | Spend;

/**
 * Live counters kept, the most recently used (keys hold the principal and,
 * with `eachModel`, the caller's model id). Past the cap the least recently
 * used counter is forgotten, request buckets before spend and open leases:
 * its key starts over (a full bucket, nothing spent, no lease open), a
 * looser limit for that key only. Real use stays
 * far below: it takes 100,000 principal × rule × model counters live at once.
 */
export const MAX_COUNTERS = 100_000;
/** Characters of the live counters' keys, at most (16 Mi: 100,000 keys of about 170). */
export const MAX_COUNTER_KEY_CHARS = 16 * 1_048_576;

/** Options of {@link memoryLimitStore}. */
export interface MemoryLimitStoreOptions {
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Live counters kept at most. Default {@link MAX_COUNTERS}. */
  maxCounters?: number;
}

/** Creates an in-memory {@link LimitStore}. */
export function memoryLimitStore(options: MemoryLimitStoreOptions = {}): LimitStore {
  const clock = options.now ?? Date.now;
  // Spend and open leases go last: forgetting them loosens a budget or a concurrency limit, a bucket only refills early.
  const entries = new BoundedMap<string, Entry>({
    maxEntries: options.maxCounters ?? MAX_COUNTERS,
    maxChars: MAX_COUNTER_KEY_CHARS,
    isPinned: (entry) => 'spent' in entry || ('leases' in entry && entry.leases.size > 0),
  });
  let sweptAt = clock();

  const live = <T extends Entry>(key: string, now: number): T | undefined => {
    const entry = entries.get(key);
    if (entry === undefined || entry.expiresAt > now) return entry as T | undefined;
    entries.delete(key);
    return undefined;
  };

  const sweep = (now: number): void => {
    if (now - sweptAt < 60_000) return;
    sweptAt = now;
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  };

  const bucketLevel = (check: { key: string; capacity: number; windowMs: number }, now: number): number => {
    const bucket = live<Bucket>(check.key, now);
    if (bucket === undefined) return check.capacity;
    return Math.min(check.capacity, bucket.level + ((now - bucket.at) * check.capacity) / check.windowMs);
  };

  const setBucket = (check: { key: string; capacity: number; windowMs: number }, level: number, now: number): void => {
    const untilFull = Math.ceil(((check.capacity - level) * check.windowMs) / check.capacity);
    const expiresAt = now + untilFull + 1000;
    // Updated in place: no garbage per request for a counter that stays.
    const bucket = entries.get(check.key) as Bucket | undefined;
    if (bucket !== undefined && 'level' in bucket) {
      bucket.level = level;
      bucket.at = now;
      bucket.expiresAt = expiresAt;
    } else entries.set(check.key, { level, at: now, expiresAt });
  };

  /**
   * The number of open leases of `key`. Expired ones are dropped from the
   * oldest on (insertion order), stopping at the first live one (only when
   * one can have expired: see `Leases`); the whole set is swept only when it
   * looks full, so admission is exact and a request does not pay for walking
   * every open lease.
   */
  const openLeases = (key: string, now: number, limit: number): number => {
    const entry = live<Leases>(key, now);
    if (entry === undefined) return 0;
    const leases = entry.leases;
    if (now >= entry.due || !entry.ordered) {
      entry.due = Infinity;
      for (const [id, expiresAt] of leases) {
        if (expiresAt > now) {
          entry.due = expiresAt;
          break;
        }
        leases.delete(id);
      }
    }
    if (leases.size >= limit) {
      let due = Infinity;
      for (const [id, expiresAt] of leases) {
        if (expiresAt <= now) leases.delete(id);
        else if (expiresAt < due) due = expiresAt;
      }
      entry.due = due;
    }
    return leases.size;
  };

  const inspect = (check: LimitCheck, now: number): CheckState => {
    switch (check.kind) {
      case 'bucket': {
        const level = bucketLevel(check, now);
        const retryAfterMs = check.amount > check.capacity ? -1 : level >= check.amount ? 0 : Math.ceil(((check.amount - level) * check.windowMs) / check.capacity);
        const after = retryAfterMs === 0 ? level - check.amount : level;
        return { remaining: Math.max(0, Math.floor(after)), resetMs: Math.ceil(((check.capacity - after) * check.windowMs) / check.capacity), retryAfterMs, period: 0 };
      }
      case 'concurrency': {
        const open = openLeases(check.key, now, check.limit);
        const fits = open < check.limit;
        return { remaining: Math.max(0, check.limit - open - (fits ? 1 : 0)), resetMs: 0, retryAfterMs: check.limit < 1 ? -1 : fits ? 0 : 1000, period: 0 };
      }
      case 'budget': {
        const period = Math.floor(now / check.periodMs);
        const spend = live<Spend>(check.key, now);
        const spent = spend?.period === period ? spend.spent : 0;
        const resetMs = (period + 1) * check.periodMs - now;
        const retryAfterMs = check.amount > check.limit ? -1 : spent + check.amount <= check.limit ? 0 : resetMs;
        const after = retryAfterMs === 0 ? spent + check.amount : spent;
        return { remaining: Math.max(0, Math.floor(check.limit - after)), resetMs, retryAfterMs, period };
      }
    }
  };

  const take = (check: LimitCheck, state: CheckState, now: number): void => {
    switch (check.kind) {
      case 'bucket':
        setBucket(check, bucketLevel(check, now) - check.amount, now);
        return;
      case 'concurrency': {
        const entry = live<Leases>(check.key, now);
        const expiresAt = now + check.leaseMs;
        if (entry === undefined) entries.set(check.key, { leases: new Map([[check.leaseId, expiresAt]]), expiresAt, due: expiresAt, ordered: true });
        else placeLease(entry, check.leaseId, expiresAt);
        return;
      }
      case 'budget': {
        const spend = live<Spend>(check.key, now);
        const spent = spend?.period === state.period ? spend.spent : 0;
        entries.set(check.key, { period: state.period, spent: spent + check.amount, expiresAt: (state.period + 1) * check.periodMs + 60_000 });
      }
    }
  };

  const adjust = (adjustment: LimitAdjustment, now: number): void => {
    switch (adjustment.kind) {
      case 'bucket':
        setBucket(adjustment, Math.min(adjustment.capacity, bucketLevel(adjustment, now) - adjustment.delta), now);
        return;
      case 'concurrency':
        live<Leases>(adjustment.key, now)?.leases.delete(adjustment.leaseId);
        return;
      case 'budget': {
        const spend = live<Spend>(adjustment.key, now);
        if (spend?.period === adjustment.period) spend.spent += adjustment.delta;
      }
    }
  };

  // Synchronous inside: nothing else runs between the checks and the takes, so it is atomic.
  const reserveNow = (checks: readonly LimitCheck[]): ReserveResult => {
    const now = clock();
    sweep(now);
    const states: CheckState[] = new Array<CheckState>(checks.length);
    let ok = true;
    for (let i = 0; i < checks.length; i++) {
      const state = inspect(checks[i]!, now);
      states[i] = state;
      if (state.retryAfterMs !== 0) ok = false;
    }
    if (ok) for (let i = 0; i < checks.length; i++) take(checks[i]!, states[i]!, now);
    return { ok, now, states };
  };
  const settleNow = (adjustments: readonly LimitAdjustment[]): void => {
    const now = clock();
    for (const adjustment of adjustments) adjust(adjustment, now);
  };
  const renewNow = (renewals: readonly LeaseRenewal[]): void => {
    const now = clock();
    for (const { key, leaseId, leaseMs } of renewals) {
      const entry = live<Leases>(key, now);
      const current = entry?.leases.get(leaseId);
      if (entry === undefined || current === undefined || current <= now) continue;
      // Moved to the end: with one lease length the leases stay in expiry order.
      entry.leases.delete(leaseId);
      placeLease(entry, leaseId, now + leaseMs);
    }
  };
  const store: SyncLimitStore = {
    reserve: (checks) => Promise.resolve(reserveNow(checks)),
    settle(adjustments) {
      settleNow(adjustments);
      return Promise.resolve();
    },
    renew(leases) {
      renewNow(leases);
      return Promise.resolve();
    },
    reserveNow,
    settleNow,
    renewNow,
  };
  return store;
}
