/**
 * The `routing.cooldown` option: when a target cools and for how long.
 * Its own file so the option's type, its defaults and the schema that
 * checks it depend on one place.
 */

/** Options of the cooldowns (`routing.cooldown`). */
export interface CooldownOptions {
  /**
   * Failed attempts among a target's last `window` that cool it: connection
   * errors, time-outs, 5xx, 529, and 429 without a retry hint. Default 9 (of
   * the last 10): a target failing 15 % of its calls at random essentially
   * never cools, a hard-down one cools on its 9th failed attempt.
   */
  failures?: number;
  /**
   * Attempts per target the rule looks back on (at least `failures`).
   * Default 10; when only `failures` is given, `failures` itself: N
   * failures in a row, as before `window` existed.
   */
  window?: number;
  /** First cooldown, in ms; doubled for each probe that fails. Default 5000. */
  baseMs?: number;
  /** Longest cooldown, in ms (also the cap of an upstream's `retry-after`). Default 300000 (5 min). */
  maxMs?: number;
  /** A probe that has not settled after this many ms lets another request probe. Default 30000. */
  probeTimeoutMs?: number;
}

/** The defaults of {@link CooldownOptions}. */
export const DEFAULT_COOLDOWN = { failures: 9, window: 10, baseMs: 5_000, maxMs: 300_000, probeTimeoutMs: 30_000 } as const;

/** Attempts per target the failure rule may look back on, at most (it keeps one byte per attempt). */
export const MAX_COOLDOWN_WINDOW = 1_000;

/** {@link CooldownOptions} with every value decided. */
export type ResolvedCooldown = { readonly [K in keyof CooldownOptions]-?: number };

/** Applies the defaults (and keeps `failures` within `window`, which the options schema checks for callers). */
export function resolveCooldown(options: CooldownOptions = {}): ResolvedCooldown {
  const failures = Math.max(1, options.failures ?? DEFAULT_COOLDOWN.failures);
  const window = Math.min(MAX_COOLDOWN_WINDOW, Math.max(failures, options.window ?? (options.failures === undefined ? DEFAULT_COOLDOWN.window : failures)));
  const baseMs = Math.max(0, options.baseMs ?? DEFAULT_COOLDOWN.baseMs);
  return {
    failures: Math.min(failures, window),
    window,
    baseMs,
    maxMs: Math.max(baseMs, options.maxMs ?? DEFAULT_COOLDOWN.maxMs),
    probeTimeoutMs: options.probeTimeoutMs ?? DEFAULT_COOLDOWN.probeTimeoutMs,
  };
}
