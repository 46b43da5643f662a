/**
 * A response cache store in a Map, for the pipeline's tests: it counts
 * commands, can age its entries (instead of a test sleeping), fail every
 * command, and keep a fill lock as a store shared by instances does.
 */
import type { CacheLookup, CacheLookupOptions, ResponseCacheStore } from 'modelgate';

export interface MapCacheStore extends ResponseCacheStore {
  readonly entries: Map<string, { entry: string; storedAt: number }>;
  readonly counts: { lookups: number; fills: number; releases: number };
  /** Makes every entry `ms` older. */
  age(ms: number): void;
  /** While true, every command rejects. */
  failing: boolean;
}

export function mapCacheStore(options: { locks?: boolean } = {}): MapCacheStore {
  const entries = new Map<string, { entry: string; storedAt: number }>();
  const locks = new Map<string, string>();
  const counts = { lookups: 0, fills: 0, releases: 0 };
  const store: MapCacheStore = {
    entries,
    counts,
    failing: false,
    age(ms) {
      for (const value of entries.values()) value.storedAt -= ms;
    },
    async lookup(key: string, lookup: CacheLookupOptions): Promise<CacheLookup> {
      counts.lookups++;
      if (store.failing) throw new Error('cache store down');
      const found = entries.get(key);
      const ageMs = found ? Date.now() - found.storedAt : 0;
      if (found && (lookup.maxAgeMs === undefined || ageMs <= lookup.maxAgeMs)) return { entry: found.entry, ageMs, lock: 'none' };
      if (!options.locks || lookup.lockMs === 0) return { lock: 'none' };
      if (locks.has(key)) return { lock: 'wait' };
      locks.set(key, lookup.token);
      return { lock: 'lead' };
    },
    async fill(key, entry, fill) {
      counts.fills++;
      if (store.failing) throw new Error('cache store down');
      entries.set(key, { entry, storedAt: Date.now() });
      if (locks.get(key) === fill.token) locks.delete(key);
    },
    async release(key, token) {
      counts.releases++;
      if (store.failing) throw new Error('cache store down');
      if (locks.get(key) === token) locks.delete(key);
    },
  };
  return store;
}
