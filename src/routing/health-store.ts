/**
 * Where gateway instances share their targets' cooldowns. Each instance
 * decides on its own state, in memory (no store call per request); a store
 * only carries the cooldowns one instance started to the others, so a
 * target that goes down on one is skipped by all.
 */
import type { StoreFailure } from '../store-guard.js';
import type { AdoptedCooldown } from './health.js';

/** A cooldown one instance started, as the others take it over. */
export interface SharedCooldown extends AdoptedCooldown {
  /** The instance that started it (it ignores its own). */
  source: string;
}

/**
 * A shared store of cooldowns: `memoryHealthStore()` (gateways in one
 * process) or `redisHealthStore({ client })` (every instance). Calls never
 * throw into a request: a store that fails leaves each instance with its
 * own state.
 */
export interface HealthStore {
  /** Shares a cooldown this instance started. */
  publish(cooldown: SharedCooldown): void;
  /** Shares that a target answered its probe: its shared cooldown is over. */
  recover(key: string): void;
  /**
   * Delivers the cooldowns of every instance (its own included), now and
   * whenever they change; a Redis store at most its `refreshMs` late.
   * Returns the unsubscribe.
   */
  subscribe(listener: (cooldowns: readonly SharedCooldown[]) => void): () => void;
  /**
   * Adds a listener told when the store starts failing (the first failed
   * call after a success, not each one during an outage): the gateway logs
   * it. Returns the removal. Optional: a store that cannot fail has none.
   */
  onFailure?(listener: (failure: StoreFailure) => void): () => void;
}
