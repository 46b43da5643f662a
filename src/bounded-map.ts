/**
 * A map with a ceiling, for state keyed by text a caller chooses (model ids,
 * principal ids): the number of distinct keys is the caller's to pick, so
 * every such map holds at most `maxEntries` entries and about `maxChars`
 * characters, dropping the least recently used entry first.
 *
 * @internal
 */

/** Options of {@link BoundedMap}. */
export interface BoundedMapOptions<K, V> {
  /** Most entries kept. */
  maxEntries: number;
  /**
   * Most characters kept, summed over the entries by `charsOf` (a string's
   * memory grows with its length). Default: no limit beyond `maxEntries`.
   * An entry of more than half of it is not kept (a `set` of it only drops
   * the key's earlier entry), so one huge key cannot empty the map.
   */
  maxChars?: number;
  /** Characters an entry holds. Default: a string key's length (other keys count 0). */
  charsOf?: (key: K, value: V) => number;
  /**
   * Entries to drop last (a live cooldown, a call in flight): an eviction
   * passes over up to {@link PINNED_SCAN} pinned entries, from the least
   * recent, for an unpinned one; when it finds none the least recent goes
   * anyway. The bound always holds, and an eviction costs the same when
   * every entry is pinned.
   */
  isPinned?: (value: V) => boolean;
}

/** Pinned entries an eviction passes over at most, looking for an unpinned one. */
export const PINNED_SCAN = 64;

const keyChars = (key: unknown): number => (typeof key === 'string' ? key.length : 0);

/**
 * A least-recently-used map: `get` and `set` make an entry the most recent
 * (`peek` reads without), and a `set` that passes a bound drops the least
 * recent entries (pinned ones last) until it holds again.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; chars: number }>();
  private chars = 0;
  readonly maxEntries: number;
  readonly maxChars: number;
  private readonly charsOf: (key: K, value: V) => number;
  private readonly isPinned: ((value: V) => boolean) | undefined;

  constructor(options: BoundedMapOptions<K, V>) {
    this.maxEntries = Math.max(1, options.maxEntries);
    this.maxChars = options.maxChars ?? Infinity;
    this.charsOf = options.charsOf ?? keyChars;
    this.isPinned = options.isPinned;
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Characters held (as `charsOf` counts them). */
  get heldChars(): number {
    return this.chars;
  }

  /** The value of `key`, made the most recent. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The value of `key`, its recency unchanged. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Sets `key` as the most recent entry, then drops others until both bounds hold. An entry of more than half of `maxChars` is not kept. */
  set(key: K, value: V): this {
    this.delete(key);
    const chars = this.charsOf(key, value);
    if (chars > this.maxChars / 2) return this;
    this.entries.set(key, { value, chars });
    this.chars += chars;
    if (this.entries.size > this.maxEntries || this.chars > this.maxChars) this.evict(key);
    return this;
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.chars -= entry.chars;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  /** Entries from the least to the most recent. */
  *[Symbol.iterator](): IterableIterator<[K, V]> {
    for (const [key, entry] of this.entries) yield [key, entry.value];
  }

  private overflows(): boolean {
    return this.entries.size > this.maxEntries || (this.chars > this.maxChars && this.entries.size > 1);
  }

  /** Drops least recent entries but `newest` until the bounds hold: unpinned ones first (see `isPinned`). */
  private evict(newest: K): void {
    while (this.overflows()) {
      const victim = this.victim(newest);
      if (victim === undefined) return;
      this.delete(victim.key);
    }
  }

  /** The least recent unpinned entry among the first {@link PINNED_SCAN} + 1, else the least recent. */
  private victim(newest: K): { key: K } | undefined {
    let oldest: { key: K } | undefined;
    let passed = 0;
    for (const [key, entry] of this.entries) {
      if (key === newest) continue;
      oldest ??= { key };
      if (!this.isPinned?.(entry.value)) return { key };
      if (++passed > PINNED_SCAN) break;
    }
    return oldest;
  }
}
