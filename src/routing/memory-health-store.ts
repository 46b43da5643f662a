/**
 * A {@link HealthStore} in this process: gateways created with the same
 * store (several apps, or tests) see each other's cooldowns at once. One
 * gateway on its own needs none: its state is in memory already.
 */
import { BoundedMap } from '../bounded-map.js';
import type { HealthStore, SharedCooldown } from './health-store.js';
import { MAX_TARGET_CHARS, MAX_TARGETS } from './health.js';

/** Options of {@link memoryHealthStore}. */
export interface MemoryHealthStoreOptions {
  /** The clock, in ms. Default `Date.now`. */
  now?: () => number;
}

interface Held {
  cooldown: SharedCooldown;
  until: number;
}

/**
 * Creates an in-process {@link HealthStore}.
 *
 * @example
 * const health = memoryHealthStore();
 * const a = createGateway({ auth, routes, routing: { health } });
 * const b = createGateway({ auth, routes, routing: { health } });
 */
export function memoryHealthStore(options: MemoryHealthStoreOptions = {}): HealthStore {
  const now = options.now ?? Date.now;
  // As many cooldowns as a tracker remembers targets; when full, ended ones go before live ones.
  const held = new BoundedMap<string, Held>({ maxEntries: MAX_TARGETS, maxChars: MAX_TARGET_CHARS, isPinned: (entry) => entry.until > now() });
  const listeners = new Set<(cooldowns: readonly SharedCooldown[]) => void>();
  const active = (): SharedCooldown[] => {
    const at = now();
    const out: SharedCooldown[] = [];
    for (const [key, entry] of held) {
      if (entry.until <= at) held.delete(key);
      else out.push({ ...entry.cooldown, remainingMs: entry.until - at });
    }
    return out;
  };
  const deliver = (listener: (cooldowns: readonly SharedCooldown[]) => void, cooldowns: readonly SharedCooldown[]): void => {
    // Later, not inside the publisher's own bookkeeping.
    queueMicrotask(() => {
      try {
        listener(cooldowns);
      } catch {
        // A failing listener must not stop the others.
      }
    });
  };
  return {
    publish(cooldown) {
      const until = now() + cooldown.remainingMs;
      const current = held.peek(cooldown.key);
      if (current && current.until >= until) return;
      held.set(cooldown.key, { cooldown: { ...cooldown }, until });
      for (const listener of listeners) deliver(listener, [cooldown]);
    },
    recover(key) {
      held.delete(key);
    },
    subscribe(listener) {
      listeners.add(listener);
      const current = active();
      if (current.length > 0) deliver(listener, current);
      return () => listeners.delete(listener);
    },
  };
}
