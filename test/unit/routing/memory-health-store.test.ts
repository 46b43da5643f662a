/**
 * The in-process health store holds as many cooldowns as a tracker holds
 * targets, ended ones going first.
 */
import { describe, expect, it } from 'vitest';
import type { SharedCooldown } from '../../../src/routing/health-store.js';
import { memoryHealthStore } from '../../../src/routing/memory-health-store.js';

const cooldown = (model: string, remainingMs: number): SharedCooldown => ({
  key: JSON.stringify(['u', model]), upstream: 'u', model, remainingMs, level: 0, cause: 'failures', source: 'instance-a',
});

async function held(store: ReturnType<typeof memoryHealthStore>): Promise<readonly SharedCooldown[]> {
  let got: readonly SharedCooldown[] = [];
  const stop = store.subscribe((cooldowns) => (got = cooldowns));
  await Promise.resolve();
  stop();
  return got;
}

describe('memoryHealthStore bounds', () => {
  it('holds at most 4,096 cooldowns, the newest', async () => {
    const store = memoryHealthStore();
    for (let i = 0; i < 10_000; i++) store.publish(cooldown(`model-${i}`, 60_000));
    const cooldowns = await held(store);
    expect(cooldowns).toHaveLength(4_096);
    expect(cooldowns.at(-1)!.model).toBe('model-9999');
    expect(cooldowns.some((entry) => entry.model === 'model-0')).toBe(false);
  });

  it('drops ended cooldowns before live ones', async () => {
    let now = 0;
    const store = memoryHealthStore({ now: () => now });
    store.publish(cooldown('long', 1_000_000));
    for (let i = 0; i < 4_095; i++) store.publish(cooldown(`short-${i}`, 10));
    now = 100;
    for (let i = 0; i < 4_095; i++) store.publish(cooldown(`later-${i}`, 60_000));
    const models = (await held(store)).map((entry) => entry.model);
    expect(models).toHaveLength(4_096);
    expect(models[0]).toBe('long');
  });
});
