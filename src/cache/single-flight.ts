/**
 * One upstream call per cache key at a time, within one process: the first
 * miss for a key leads (it calls the upstream and fills the entry); the
 * identical misses that arrive meanwhile wait for what it ends with, then
 * answer from it or, when it stored nothing, go upstream themselves.
 *
 * @internal
 */
import type { AbortSource } from '../signals/abort-source.js';

/** What a leader hands its waiters: the serialised entry it served or stored, and that entry's age. */
export interface FlightResult {
  entry: string;
  ageMs: number;
}

/** The leader's side of a flight: settled exactly once (later calls do nothing). */
export interface FlightLead {
  /** Wakes the waiters with the entry, or with nothing when the answer was not stored. */
  settle(result: FlightResult | undefined): void;
}

export type FlightTicket = { lead: FlightLead; wait?: undefined } | { lead?: undefined; wait: Promise<FlightResult | undefined> };

/** The flights in progress, one per key. */
export class SingleFlight {
  private readonly flights = new Map<string, { promise: Promise<FlightResult | undefined>; startedAt: number }>();

  /**
   * Leads `key` when no flight for it is in progress; otherwise the leader's
   * outcome, to wait for. A flight older than `staleAfterMs` is taken over
   * (its leader's settle then wakes only its own waiters): a leader that
   * never settles cannot hold a key for good.
   */
  join(key: string, staleAfterMs: number): FlightTicket {
    const now = Date.now();
    const running = this.flights.get(key);
    if (running && now - running.startedAt <= staleAfterMs) return { wait: running.promise };
    let resolve!: (result: FlightResult | undefined) => void;
    const flight = {
      promise: new Promise<FlightResult | undefined>((done) => {
        resolve = done;
      }),
      startedAt: now,
    };
    this.flights.set(key, flight);
    let settled = false;
    return {
      lead: {
        settle: (result) => {
          if (settled) return;
          settled = true;
          if (this.flights.get(key) === flight) this.flights.delete(key);
          resolve(result);
        },
      },
    };
  }

  /** Keys with a flight in progress. */
  get size(): number {
    return this.flights.size;
  }
}

/**
 * `promise`'s value, or undefined once `ms` passed or `signal` aborted,
 * whichever comes first. Leaves no timer or listener behind.
 */
export function waitBounded<T>(promise: Promise<T>, options: { ms: number; signal: AbortSource }): Promise<T | undefined> {
  const { ms, signal } = options;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve) => {
    const finish = (value: T | undefined): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = (): void => finish(undefined);
    const timer = setTimeout(onAbort, ms);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(finish, () => finish(undefined));
  });
}
