import { describe, expect, it } from 'vitest';
import type { CacheLookup, ResponseCacheStore } from '../../../src/cache/cache-types.js';
import { lookupOrWait } from '../../../src/cache/lookup-or-wait.js';
import { AbortTrigger } from '../../../src/signals/abort-source.js';

/** A store whose lookups answer from a script, in order (the last one repeats). */
function scripted(answers: CacheLookup[]): ResponseCacheStore & { lookups: number } {
  const store = {
    lookups: 0,
    async lookup() {
      return answers[Math.min(store.lookups++, answers.length - 1)]!;
    },
    fill: async () => undefined,
    release: async () => undefined,
  };
  return store;
}

const options = { token: 't', lockMs: 1000, waitMs: 2000, signal: new AbortTrigger() };

describe('lookupOrWait', () => {
  it('answers at once unless another instance holds the lock', async () => {
    const store = scripted([{ lock: 'lead' }]);
    await expect(lookupOrWait(store, 'k', options)).resolves.toEqual({ lock: 'lead' });
    expect(store.lookups).toBe(1);
  });

  it('polls while the lock is held, until the entry appears', async () => {
    const store = scripted([{ lock: 'wait' }, { lock: 'wait' }, { entry: 'E', ageMs: 3, lock: 'none' }]);
    await expect(lookupOrWait(store, 'k', options)).resolves.toEqual({ entry: 'E', ageMs: 3, lock: 'none' });
    expect(store.lookups).toBe(3);
  });

  it('takes the lock once it is free', async () => {
    const store = scripted([{ lock: 'wait' }, { lock: 'lead' }]);
    await expect(lookupOrWait(store, 'k', options)).resolves.toEqual({ lock: 'lead' });
  });

  it('gives up as a miss without a lock after waitMs, or when the client leaves', async () => {
    const store = scripted([{ lock: 'wait' }]);
    const started = Date.now();
    await expect(lookupOrWait(store, 'k', { ...options, waitMs: 300 })).resolves.toEqual({ lock: 'none' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const client = new AbortTrigger();
    const waiting = lookupOrWait(scripted([{ lock: 'wait' }]), 'k', { ...options, waitMs: 60_000, signal: client });
    setTimeout(() => client.abort(), 20);
    await expect(waiting).resolves.toEqual({ lock: 'none' });
  });
});
