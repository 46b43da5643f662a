/**
 * Per-target health: a circuit breaker per deployment (upstream name +
 * upstream model id, and on `keyPassthrough` routes the caller's credential
 * id). A target cools once `failures` of its last `window` attempts failed,
 * for a cooldown that doubles while the target keeps failing; once the
 * cooldown is over exactly one probe request is let through (half-open)
 * before full traffic; an upstream's explicit 429 (or 503) with
 * `retry-after` cools the target for just that long.
 *
 * Why `failures` of a `window` rather than N in a row: with the defaults (9
 * of the last 10), a target failing 15 % of its attempts at random cools
 * somewhere in 1,200 attempts with probability 2.9e-4 (exact, by dynamic
 * programming over the last 10 outcomes; 3 in a row, the rule before, did so
 * with probability 0.97), one failing 50 % within 1,200 attempts with
 * probability 0.99, and a hard-down one on its 9th failed attempt.
 *
 * Pure and synchronous (one `Map` lookup per admission): the clock is
 * injected, and sharing with other instances goes through `adopt`.
 */
import { BoundedMap } from '../bounded-map.js';
import { type CooldownOptions, resolveCooldown } from './cooldown-options.js';
import { FailureWindow } from './failure-window.js';

export type { CooldownOptions } from './cooldown-options.js';
export { DEFAULT_COOLDOWN } from './cooldown-options.js';

/** What a target looks like to the router. Gauge values: 0 healthy, 1 half-open, 2 cooling. */
export type TargetState = 'healthy' | 'half-open' | 'cooling';

/**
 * Why a target cools: its failures, or its upstream's own retry hint on a
 * 429 (`rate_limit`) or a 503 (`unavailable`).
 */
export type CoolingCause = 'failures' | 'rate_limit' | 'unavailable';

/** True for a cooldown the upstream asked for (`retry-after`): it is kept, even when nothing else is left to try. */
export function isRetryHint(cause: CoolingCause): boolean {
  return cause !== 'failures';
}

/** The numeric value of a state in `modelgate_upstream_state`. */
export const STATE_VALUES: Readonly<Record<TargetState, number>> = { healthy: 0, 'half-open': 1, cooling: 2 };

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
  /** True when `key` is one credential's view of the target (`keyPassthrough`): kept out of the state gauge. */
  readonly scoped?: boolean;
}

/** How an attempt went, for the health of its target. */
export type AttemptHealth =
  | { kind: 'success' }
  | { kind: 'failure' }
  /** A 429 that said how long to wait (ms). */
  | { kind: 'rate_limited'; retryAfterMs: number }
  /** A 503 that said how long to wait (ms). */
  | { kind: 'unavailable'; retryAfterMs: number }
  /** Says nothing about the target (the client left, the gateway's own error). */
  | { kind: 'neutral' };

/** A change of a target's state, for metrics and sharing. */
export interface HealthChange {
  key: string;
  upstream: string;
  model: string;
  state: TargetState;
  /** True for one credential's view of the target (`keyPassthrough` routes). */
  scoped?: true;
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
  /** True for one credential's view of the target (`keyPassthrough` routes). */
  scoped?: boolean;
}

interface Entry {
  upstream: string;
  model: string;
  scoped: boolean;
  /** The last attempts' outcomes while closed. */
  window: FailureWindow;
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
 * The oldest closed target is forgotten first (only its recent outcomes go:
 * it needs `failures` more to cool). Cooling targets are passed over, up to
 * a bounded number per eviction; one forgotten then takes traffic again at
 * once. Real use never fills the map: it takes thousands of distinct targets.
 */
export const MAX_TARGETS = 4_096;
/** Characters of the remembered targets' keys, at most (1 Mi). */
export const MAX_TARGET_CHARS = 1_048_576;

/**
 * The identity of a target: its upstream's name and the model id sent to
 * it, and on a `keyPassthrough` route the caller's credential id
 * (`credentialScope`, a digest: never the key itself).
 */
export function targetKey(upstream: string, model: string, scope?: string): string {
  return JSON.stringify(scope === undefined ? [upstream, model] : [upstream, model, scope]);
}

export class HealthTracker {
  // Read with `peek`: the order is the order targets were first remembered in.
  private readonly entries = new BoundedMap<string, Entry>({ maxEntries: MAX_TARGETS, maxChars: MAX_TARGET_CHARS, isPinned: (entry) => entry.open });
  private readonly listeners = new Set<(change: HealthChange) => void>();
  readonly failures: number;
  readonly window: number;
  readonly baseMs: number;
  readonly maxMs: number;
  readonly probeTimeoutMs: number;

  constructor(options: CooldownOptions = {}, readonly now: () => number = Date.now) {
    ({ failures: this.failures, window: this.window, baseMs: this.baseMs, maxMs: this.maxMs, probeTimeoutMs: this.probeTimeoutMs } = resolveCooldown(options));
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

  /**
   * Every remembered target with its state (metrics). One credential's view
   * of a target (`keyPassthrough`) is left out: a caller's own rate limit is
   * not the target's state.
   */
  snapshot(): Array<{ upstream: string; model: string; state: TargetState }> {
    const out: Array<{ upstream: string; model: string; state: TargetState }> = [];
    for (const [key, entry] of this.entries) if (!entry.scoped) out.push({ upstream: entry.upstream, model: entry.model, state: this.state(key) });
    return out;
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
        // A target that never failed has no entry: nothing to remember.
        if (!entry) return;
        if (entry.open && !ticket.probe && ticket.forced !== true && entry.until > this.now()) return; // a late answer from before the cooldown
        // A closed target's entry is kept (its gauge series reads 0 rather than vanishing); the success joins its window.
        if (!entry.open) {
          entry.window.record(false);
          return;
        }
        entry.open = false;
        entry.level = 0;
        entry.window.clear();
        this.emit(this.change(key, entry, 'healthy'));
        return;
      case 'rate_limited':
      case 'unavailable': {
        entry ??= this.create(key, upstream, model, ticket.scoped === true);
        // Exactly the upstream's hint (never stretched to `maxMs`), at most `maxMs`.
        const durationMs = Math.min(this.maxMs, Math.max(0, outcome.retryAfterMs));
        this.open(entry, key, outcome.kind === 'rate_limited' ? 'rate_limit' : 'unavailable', durationMs);
        return;
      }
      case 'failure': {
        entry ??= this.create(key, upstream, model, ticket.scoped === true);
        if (entry.open) {
          // A failed probe re-opens with the next, longer cooldown; other late failures change nothing.
          if (!ticket.probe || ticket.forced === true) return;
          entry.level++;
        } else if (entry.window.record(true) < this.failures) return;
        this.open(entry, key, 'failures', Math.min(this.maxMs, this.baseMs * 2 ** entry.level));
        return;
      }
    }
  }

  /** Takes over a cooldown another instance started, unless this one already cools longer. */
  adopt(cooldown: AdoptedCooldown): void {
    const until = this.now() + cooldown.remainingMs;
    const entry = this.entries.peek(cooldown.key) ?? this.create(cooldown.key, cooldown.upstream, cooldown.model, cooldown.scoped === true);
    if (entry.open && entry.until >= until) return;
    const wasCooling = this.state(cooldown.key) === 'cooling';
    entry.open = true;
    entry.window.clear();
    entry.until = until;
    entry.cause = cooldown.cause;
    entry.level = Math.max(entry.level, cooldown.level);
    if (!wasCooling) this.emit(this.change(cooldown.key, entry, 'cooling'));
  }

  private open(entry: Entry, key: string, cause: CoolingCause, durationMs: number): void {
    entry.open = true;
    entry.window.clear();
    entry.cause = cause;
    entry.until = this.now() + durationMs;
    this.emit({ ...this.change(key, entry, 'cooling'), started: { cause, durationMs, level: entry.level } });
  }

  private change(key: string, entry: Entry, state: TargetState): HealthChange {
    const change: HealthChange = { key, upstream: entry.upstream, model: entry.model, state };
    if (entry.scoped) change.scoped = true;
    return change;
  }

  private create(key: string, upstream: string, model: string, scoped: boolean): Entry {
    const entry: Entry = { upstream, model, scoped, window: new FailureWindow(this.window), level: 0, open: false, until: 0, cause: 'failures', probeAt: -1 };
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
