/**
 * The memory store's lease-walk shortcut (`due`/`ordered`) stays
 * exact with renewals, against a naive model (random reserve / release /
 * renew / clock steps).
 */
import { describe, expect, it } from 'vitest';
import { memoryLimitStore } from '../../../src/limits/memory-limit-store.js';
import type { SyncLimitStore } from '../../../src/limits/memory-limit-store.js';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function run(seed: number, leaseChoices: number[], steps: number, exactRemaining: boolean) {
  const random = rng(seed);
  let now = 1_000_000;
  const store = memoryLimitStore({ now: () => now }) as SyncLimitStore;
  const model = new Map<string, number>();
  const limit = 1 + Math.floor(random() * 6);
  let next = 0;
  const ids: string[] = [];
  for (let step = 0; step < steps; step++) {
    const r = random();
    const pick = () => ids[Math.floor(random() * ids.length)];
    if (r < 0.3) {
      now += Math.floor(random() * 700);
    } else if (r < 0.65) {
      const leaseId = `l${next++}`;
      const leaseMs = leaseChoices[Math.floor(random() * leaseChoices.length)]!;
      const open = [...model.values()].filter((at) => at > now).length;
      const fits = open < limit;
      const result = store.reserveNow([{ kind: 'concurrency', key: 'k', limit, leaseMs, leaseId }]);
      const context = `seed ${seed} step ${step} now ${now}`;
      expect(result.ok, context).toBe(fits);
      if (exactRemaining) expect(result.states[0]!.remaining, context).toBe(Math.max(0, limit - open - (fits ? 1 : 0)));
      if (fits) {
        model.set(leaseId, now + leaseMs);
        ids.push(leaseId);
      }
    } else if (r < 0.8) {
      const leaseId = pick();
      if (leaseId === undefined) continue;
      store.settleNow([{ kind: 'concurrency', key: 'k', leaseId }]);
      model.delete(leaseId);
    } else {
      const leaseId = pick();
      if (leaseId === undefined) continue;
      const leaseMs = leaseChoices[Math.floor(random() * leaseChoices.length)]!;
      store.renewNow([{ key: 'k', leaseId, leaseMs }]);
      const at = model.get(leaseId);
      if (at !== undefined && at > now) model.set(leaseId, now + leaseMs);
    }
  }
}

describe('memory store leases with renewals vs a naive model', () => {
  it('one lease length, clock forward: admission and remaining exact', () => {
    for (let seed = 1; seed <= 400; seed++) run(seed, [1000], 400, true);
  });
  it('mixed lease lengths: admission exact', () => {
    for (let seed = 1; seed <= 400; seed++) run(seed, [300, 1000, 2500], 400, false);
  });
});
