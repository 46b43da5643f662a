import { describe, expect, it } from 'vitest';
import { createGatewayHealth } from '../../../src/routing/gateway-health.js';
import { DEFAULT_COOLDOWN, targetKey } from '../../../src/routing/health.js';
import { memoryHealthStore } from '../../../src/routing/memory-health-store.js';

const KEY = targetKey('up', 'model-1');
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('createGatewayHealth', () => {
  it('is off with `health: false`, per instance by default', () => {
    expect(createGatewayHealth({ health: false })).toBeUndefined();
    const a = createGatewayHealth(undefined)!;
    const b = createGatewayHealth(undefined)!;
    for (let i = 0; i < DEFAULT_COOLDOWN.failures; i++) a.tracker.settle({ key: KEY, probe: false }, { kind: 'failure' }, 'up', 'model-1');
    expect(a.tracker.state(KEY)).toBe('cooling');
    expect(b.tracker.state(KEY)).toBe('healthy');
  });

  it('shares a cooldown through one store: the other instance adopts it with its level, the starter ignores its own echo', async () => {
    let now = 1_000;
    const clock = () => now;
    const store = memoryHealthStore({ now: clock });
    const a = createGatewayHealth({ health: store }, clock)!;
    const b = createGatewayHealth({ health: store }, clock)!;
    for (let i = 0; i < DEFAULT_COOLDOWN.failures; i++) a.tracker.settle({ key: KEY, probe: false }, { kind: 'failure' }, 'up', 'model-1');
    await flush();
    expect(b.tracker.state(KEY)).toBe('cooling');
    expect(b.tracker.cooling(KEY)?.until).toBe(6_000);
    now += 2_000;
    // A gateway started later gets the cooldowns still running.
    const c = createGatewayHealth({ health: store }, clock)!;
    await flush();
    expect(c.tracker.cooling(KEY)?.until).toBe(6_000);
    a.close();
    b.close();
    c.close();
  });

  it('stops listening on close', async () => {
    const store = memoryHealthStore();
    const a = createGatewayHealth({ health: store })!;
    const b = createGatewayHealth({ health: store })!;
    b.close();
    for (let i = 0; i < DEFAULT_COOLDOWN.failures; i++) a.tracker.settle({ key: KEY, probe: false }, { kind: 'failure' }, 'up', 'model-1');
    await flush();
    expect(b.tracker.state(KEY)).toBe('healthy');
    a.close();
  });
});
