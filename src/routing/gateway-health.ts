/**
 * The health of one gateway's targets: its tracker, tied to the shared
 * store when `routing.health` names one.
 *
 * @internal
 */
import { randomUUID } from 'node:crypto';
import { HealthTracker } from './health.js';
import type { RoutingOptions } from './routing-options.js';

export interface GatewayHealth {
  readonly tracker: HealthTracker;
  /** Stops sharing (the store's refresh timer). */
  close(): void;
}

/** The gateway's health, or `undefined` when `routing.health` is `false`. */
export function createGatewayHealth(options: RoutingOptions | undefined, now?: () => number): GatewayHealth | undefined {
  if (options?.health === false) return undefined;
  const tracker = new HealthTracker(options?.cooldown, now);
  const store = options?.health;
  if (!store) return { tracker, close: () => undefined };
  const source = randomUUID();
  const stopPublishing = tracker.onChange((change) => {
    if (change.started) {
      const { cause, durationMs, level } = change.started;
      store.publish({ key: change.key, upstream: change.upstream, model: change.model, remainingMs: durationMs, level, cause, source, ...(change.scoped ? { scoped: true } : {}) });
    } else if (change.state === 'healthy') store.recover(change.key);
  });
  const stopReading = store.subscribe((cooldowns) => {
    for (const cooldown of cooldowns) if (cooldown.source !== source) tracker.adopt(cooldown);
  });
  return {
    tracker,
    close() {
      stopPublishing();
      stopReading();
    },
  };
}
