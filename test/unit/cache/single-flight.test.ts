import { describe, expect, it } from 'vitest';
import { SingleFlight, waitBounded } from '../../../src/cache/single-flight.js';
import { AbortTrigger } from '../../../src/signals/abort-source.js';

describe('SingleFlight', () => {
  it('the first caller of a key leads; later ones wait for what it settles', async () => {
    const flights = new SingleFlight();
    const first = flights.join('k', 10_000);
    const second = flights.join('k', 10_000);
    expect(first.lead).toBeDefined();
    expect(second.wait).toBeDefined();
    first.lead!.settle({ entry: 'E', ageMs: 0 });
    await expect(second.wait).resolves.toEqual({ entry: 'E', ageMs: 0 });
    // Settled: the next caller leads a new flight.
    expect(flights.join('k', 10_000).lead).toBeDefined();
  });

  it('other keys do not wait; settle counts once', async () => {
    const flights = new SingleFlight();
    const a = flights.join('a', 10_000);
    expect(flights.join('b', 10_000).lead).toBeDefined();
    const waiting = flights.join('a', 10_000).wait!;
    a.lead!.settle(undefined);
    a.lead!.settle({ entry: 'late', ageMs: 0 });
    await expect(waiting).resolves.toBeUndefined();
  });

  it('a flight older than the stale limit is taken over, and its late settle leaves the new one alone', async () => {
    const flights = new SingleFlight();
    const stuck = flights.join('k', 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const next = flights.join('k', 0);
    expect(next.lead).toBeDefined();
    stuck.lead!.settle(undefined);
    expect(flights.size).toBe(1);
    next.lead!.settle(undefined);
    expect(flights.size).toBe(0);
  });
});

describe('waitBounded', () => {
  it('gives the value, or undefined after the time limit or an abort', async () => {
    const never = new Promise<string>(() => undefined);
    await expect(waitBounded(Promise.resolve('v'), { ms: 1000, signal: new AbortTrigger() })).resolves.toBe('v');
    await expect(waitBounded(never, { ms: 10, signal: new AbortTrigger() })).resolves.toBeUndefined();
    const client = new AbortTrigger();
    const waiting = waitBounded(never, { ms: 60_000, signal: client });
    client.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});
