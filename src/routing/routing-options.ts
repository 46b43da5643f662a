/**
 * The gateway's `routing` option.
 */
import type { CooldownOptions } from './cooldown-options.js';
import type { HealthStore } from './health-store.js';

export interface RoutingOptions {
  /**
   * Per-target health (cooldowns). Default: on, each instance with its own
   * state in memory. `redisHealthStore({ client })` shares cooldowns with
   * every instance (`memoryHealthStore()` with gateways in this process);
   * `false` turns cooldowns off (every request tries every target).
   */
  health?: HealthStore | false;
  /** When a target cools and for how long (see `CooldownOptions` for defaults). */
  cooldown?: CooldownOptions;
}
