/**
 * Per-target health: a circuit breaker per deployment (upstream name +
 * upstream model id). Consecutive failures open it for a cooldown that
 * doubles while the target keeps failing; once the cooldown is over exactly
 * one probe request is let through (half-open) before full traffic; a 429
 * with `retry-after` cools the target for just that long.
 *
 * Pure and synchronous (one `Map` lookup per admission): the clock is
 * injected, and sharing with other instances goes through `adopt`.
 */
import { BoundedMap } from '../bounded-map.js';

/** What a target looks like to the router. Gauge values: 0 healthy, 1 half-open, 2 cooling. */
export type TargetState = 'healthy' | 'half-open' | 'cooling';

/** Why a target cools: repeated failures, or an upstream's 429 with a retry hint. */
export type CoolingCause = 'failures' | 'rate_limit';

/** The numeric value of a state in `modelgate_upstream_state`. */
export const STATE_VALUES: Readonly<Record<TargetState, number>> = { healthy: 0, 'half-open': 1, cooling: 2 };

/** Options of the cooldowns (`routing.cooldown`). */
export interface CooldownOptions {
  /** Consecutive failures (connection errors, time-outs, 5xx, 529, 429 without a retry hint) that open the circuit. Default 3. */
  failures?: number;
  /** First cooldown, in ms; doubled for each probe that fails. Default 5000. */
  baseMs?: number;
  /** Longest cooldown, in ms (also the cap of a 429's `retry-after`). Default 300000 (5 min). */
  maxMs?: number;
  /** A probe that has not settled after this many ms lets another request probe. Default 30000. */
  probeTimeoutMs?: number;
}

/** The defaults of {@link CooldownOptions}. */
export const DEFAULT_COOLDOWN = { failures: 3, baseMs: 5_000, maxMs: 300_000, probeTimeoutMs: 30_000 } as const;

/** A target out of rotation until `until` (ms on the tracker's clock). */
export interface Cooling {
  key: string;
  until: number;
  cause: CoolingCause;
}

/**
 * The right to send one attempt to a target: `probe` when it is the
 * half-open probe, `forced` when every target was cooling and the route
 * said to try anyway (a success then closes the circuit, a failure changes
 * nothing).
 */
export interface HealthTicket {
  readonly key: string;
  readonly probe: boolean;
  readonly forced?: boolean;
}

/** How an attempt went, for the health of its target. */
export type AttemptHealth =
  | { kind: 'success' }
  | { kind: 'failure' }
  /** A 429 that said how long to wait (ms). */
  | { kind: 'rate_limited'; retryAfterMs: number }
  /** Says nothing about the target (the client left, the gateway's own error). */
  | { kind: 'neutral' };

/** A change of a target's state, for metrics and sharing. */
export interface HealthChange {
  key: string;
  upstream: string;
  model: string;
  state: TargetState;
  /** Set when this instance started a cooldown (not when it adopted another instance's). */
  started?: { cause: CoolingCause; durationMs: number; level: number };
}

/** A cooldown to take over from another instance. */
export interface AdoptedCooldown {
  /** The target's identity (`targetKey(upstream, model)`). */
  key: string;
  upstream: string;
  model: string;
  /** Ms it still lasts. */
  remainingMs: number;
  /** Cooldowns in a row on that target (the doubling exponent), so the next one grows everywhere. */
  level: number;
  cause: CoolingCause;
}

interface Entry {
  upstream: string;
  model: string;
  /** Consecutive failures while closed. */
  failures: number;
  /** Cooldowns in a row without a successful probe (the doubling exponent). */
  level: number;
  /** True from the first cooldown until a probe succeeds. */
  open: boolean;
  until: number;
  cause: CoolingCause;
  /** Clock reading when the current probe started, or -1 when none is out. */
  probeAt: number;
}

/** How long requests that find the probe out are told to wait (`retry-after`), at most. */
const PROBE_WAIT_MS = 1_000;

/**
 * Targets remembered at most (model ids of glob routes come from callers).
 * The oldest closed target is forgotten first (only its failure count goes:
 * it needs `failures` more to cool). Cooling targets are passed over, up to
 * a bounded number per eviction; one forgotten then takes traffic again at
 * once. Real use never fills the map: it takes thousands of distinct targets.
 */
export const MAX_TARGETS = 4_096;
/** Characters of the remembered targets' keys, at most (1 Mi). */
export const MAX_TARGET_CHARS = 1_048_576;

/** The identity of a target: its upstream's name and the model id sent to it. */
export function targetKey(upstream: string, model: string): string {
  return JSON.stringify([upstream, model]);
}

export class HealthTracker {
  // Read with `peek`: the order is the order targets were first remembered in.
  private readonly entries = new BoundedMap<string, Entry>({ maxEntries: MAX_TARGETS, maxChars: MAX_TARGET_CHARS, isPinned: (entry) => entry.open });
  private readonly listeners = new Set<(change: HealthChange) => void>();
  readonly failures: number;
  readonly baseMs: number;
  readonly maxMs: number;
  readonly probeTimeoutMs: number;

  constructor(options: CooldownOptions = {}, readonly now: () => number = Date.now) {
    this.failures = Math.max(1, options.failures ?? DEFAULT_COOLDOWN.failures);
    this.baseMs = Math.max(0, options.baseMs ?? DEFAULT_COOLDOWN.baseMs);
    this.maxMs = Math.max(this.baseMs, options.maxMs ?? DEFAULT_COOLDOWN.maxMs);
    this.probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_COOLDOWN.probeTimeoutMs;
  }

  /** Calls `listener` on every state change; returns the unsubscribe. */
  onChange(listener: (change: HealthChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The state of a target now. */
  state(key: string): TargetState {
    const entry = this.entries.peek(key);
    if (!entry?.open) return 'healthy';
    return entry.until > this.now() ? 'cooling' : 'half-open';
  }

  /** Targets remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** Every remembered target with its state (metrics). */
  snapshot(): Array<{ upstream: string; model: string; state: TargetState }> {
    return [...this.entries].map(([key, entry]) => ({ upstream: entry.upstream, model: entry.model, state: this.state(key) }));
  }

  /**
   * The cooling of a target that cannot take a request now (cooling, or
   * half-open with its probe out; `until` is then the probe's time-out),
   * else `undefined`. Takes nothing: see `admit`.
   */
  cooling(key: string): Cooling | undefined {
    const entry = this.entries.peek(key);
    if (!entry?.open) return undefined;
    const now = this.now();
    if (entry.until > now) return { key, until: entry.until, cause: entry.cause };
    // The probe usually settles within its own request: others are told to come back soon, not at its time-out.
    if (entry.probeAt >= 0 && now - entry.probeAt < this.probeTimeoutMs) return { key, until: Math.min(entry.probeAt + this.probeTimeoutMs, now + PROBE_WAIT_MS), cause: entry.cause };
    return undefined;
  }

  /** A ticket to send to the target, or its cooling. In half-open, only the first caller gets one (the probe). */
  admit(key: string): HealthTicket | Cooling {
    const entry = this.entries.peek(key);
    if (!entry?.open) return { key, probe: false };
    const blocked = this.cooling(key);
    if (blocked) return blocked;
    entry.probeAt = this.now();
    return { key, probe: true };
  }

  /** Records how an attempt went. `upstream` and `model` name the target in metrics. */
  settle(ticket: HealthTicket, outcome: AttemptHealth, upstream: string, model: string): void {
    const { key } = ticket;
    let entry = this.entries.peek(key);
    if (entry && ticket.probe) entry.probeAt = -1;
    switch (outcome.kind) {
      case 'neutral':
        return;
      case 'success':
        if (!entry) return;
        if (entry.open && !ticket.probe && ticket.forced !== true && entry.until > this.now()) return; // a late answer from before the cooldown
        // Kept (healthy), so its gauge series reads 0 rather than vanishing.
        entry.failures = 0;
        if (!entry.open) return;
        entry.open = false;
        entry.level = 0;
        this.emit({ key, upstream, model, state: 'healthy' });
        return;
      case 'rate_limited': {
        entry ??= this.create(key, upstream, model);
        const durationMs = Math.min(this.maxMs, Math.max(0, outcome.retryAfterMs));
        this.open(entry, key, 'rate_limit', durationMs);
        return;
      }
      case 'failure': {
        entry ??= this.create(key, upstream, model);
        if (entry.open) {
          // A failed probe re-opens with the next, longer cooldown; other late failures change nothing.
          if (!ticket.probe || ticket.forced === true) return;
          entry.level++;
        } else if (++entry.failures < this.failures) return;
        this.open(entry, key, 'failures', Math.min(this.maxMs, this.baseMs * 2 ** entry.level));
        return;
      }
    }
  }

  /** Takes over a cooldown another instance started, unless this one already cools longer. */
  adopt(cooldown: AdoptedCooldown): void {
    const until = this.now() + cooldown.remainingMs;
    const entry = this.entries.peek(cooldown.key) ?? this.create(cooldown.key, cooldown.upstream, cooldown.model);
    if (entry.open && entry.until >= until) return;
    const wasCooling = this.state(cooldown.key) === 'cooling';
    entry.open = true;
    entry.failures = 0;
    entry.until = until;
    entry.cause = cooldown.cause;
    entry.level = Math.max(entry.level, cooldown.level);
    if (!wasCooling) this.emit({ key: cooldown.key, upstream: entry.upstream, model: entry.model, state: 'cooling' });
  }

  private open(entry: Entry, key: string, cause: CoolingCause, durationMs: number): void {
    entry.open = true;
    entry.failures = 0;
    entry.cause = cause;
    entry.until = this.now() + durationMs;
    this.emit({ key, upstream: entry.upstream, model: entry.model, state: 'cooling', started: { cause, durationMs, level: entry.level } });
  }

  private create(key: string, upstream: string, model: string): Entry {
    const entry: Entry = { upstream, model, failures: 0, level: 0, open: false, until: 0, cause: 'failures', probeAt: -1 };
    this.entries.set(key, entry);
    return entry;
  }

  private emit(change: HealthChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A failing listener (metrics, sharing) must not change routing.
      }
    }
  }
}
