/**
 * The in-process {@link ResponseStore}: one gateway instance, gone with the
 * process. Bounded by count and by bytes (least recently used first), and
 * by age: a response expires `ttlMs` after it was stored. Expired responses
 * are dropped when read, and a few at each write; there is no timer, so the
 * store never keeps a process alive.
 */
import { assertOptions } from '../options/parse-options.js';
import { memoryResponseStoreOptionsSchema } from '../options/response-store-schema.js';
import { DEFAULT_RESPONSE_TTL_MS } from './default-response-ttl.js';
import { itemsOf } from './items-of.js';
import type { FoundItems, ResponseItem, ResponseStore, StoredResponse } from './response-store.js';

/**
 * Responses kept at most by default. A response is read back by the next
 * turn of its conversation, usually within minutes: ten thousand covers
 * the conversations of a busy instance over that time, and the byte bound
 * below is what usually holds first.
 */
const DEFAULT_MAX_RESPONSES = 10_000;

/**
 * JSON bytes kept at most by default: 64 MiB. A record repeats its whole
 * conversation (every input item of the chain), so an agent's long session
 * reaches a megabyte per turn; 64 MiB keeps dozens of those or thousands
 * of short exchanges, a modest share of a server's memory. The heap holds
 * the parsed records, a few times their JSON size.
 */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Expired responses dropped at most per write. Responses expire in the
 * order they were written, so each write drops the oldest expired ones; a
 * bound keeps a write after a long idle spell (thousands expired at once)
 * as quick as any other, and the rest go on later writes or as they are read.
 */
const SWEEP_PER_WRITE = 100;

/** Options of {@link memoryResponseStore}. */
export interface MemoryResponseStoreOptions {
  /** Responses kept at most; the least recently used go first. Default 10,000. */
  maxResponses?: number;
  /**
   * Bytes kept at most, counted as the UTF-8 JSON size of each record; the
   * least recently used go first. A record larger than this is not stored
   * (its `put` resolves, a later `get` misses). Default 64 MiB.
   */
  maxBytes?: number;
  /** Ms a response lives after its `put` (reads do not extend it). Default 24 hours. */
  ttlMs?: number;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  /** The store's own copy, never handed out. */
  record: StoredResponse;
  /** Its input and output items by id (an output item wins over an input item of the same id). */
  items: Map<string, ResponseItem>;
  bytes: number;
  expiresAt: number;
}

/** One key per (owner, id) pair: the owner's length first, so no two pairs share a key. */
function keyOf(owner: string, id: string): string {
  return `${owner.length}:${owner}${id}`;
}

/**
 * Creates an in-memory {@link ResponseStore}.
 *
 * `put` stores a deep copy (through JSON, as the Redis store does: what is
 * not JSON, such as `undefined` fields, is not kept) and every read returns
 * a copy of its own, so neither the caller's object nor a returned one can
 * change what is stored. A record whose JSON is larger than `maxBytes` is
 * not stored: `put` resolves and a later `get` misses (a record it
 * replaces is gone too). An item id found in several responses (a chain
 * repeats earlier turns' items) resolves while any of them remains, to the
 * copy in the one stored last.
 *
 * @throws GatewayConfigError when an option is wrong (a negative size, a TTL that is not a number, ...).
 * @example
 * createGateway({ auth, routes, responseStore: memoryResponseStore({ ttlMs: 60 * 60 * 1000 }) });
 */
export function memoryResponseStore(options: MemoryResponseStoreOptions = {}): ResponseStore {
  assertOptions(memoryResponseStoreOptionsSchema, options, 'memoryResponseStore');
  const maxResponses = options.maxResponses ?? DEFAULT_MAX_RESPONSES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const ttlMs = options.ttlMs ?? DEFAULT_RESPONSE_TTL_MS;
  const clock = options.now ?? Date.now;

  /** By key, least recently used first. */
  const entries = new Map<string, Entry>();
  /** The same entries in the order they were written: the order they expire in. */
  const byAge = new Map<string, Entry>();
  /** keyOf(owner, item id) → keys of the responses holding that item, in the order they were stored. */
  const itemIndex = new Map<string, Set<string>>();
  let totalBytes = 0;

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    byAge.delete(key);
    totalBytes -= entry.bytes;
    for (const itemId of entry.items.keys()) {
      const indexKey = keyOf(entry.record.owner, itemId);
      const holders = itemIndex.get(indexKey);
      holders?.delete(key);
      if (holders?.size === 0) itemIndex.delete(indexKey);
    }
  };

  /** The live entry under `key`, now the most recently used; an expired one is dropped. */
  const use = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      remove(key);
      return undefined;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  };

  /** The stored item (not a copy) in the newest live response holding it, and that response's entry. */
  const findItem = (owner: string, itemId: string, now: number): { item: ResponseItem; entry: Entry } | undefined => {
    const holders = itemIndex.get(keyOf(owner, itemId));
    if (holders === undefined) return undefined;
    // Newest first; `use` may drop expired holders from the set, hence the copy.
    const keys = [...holders];
    for (let i = keys.length - 1; i >= 0; i--) {
      const entry = use(keys[i]!, now);
      const item = entry?.items.get(itemId);
      if (item) return { item, entry: entry! };
    }
    return undefined;
  };

  const sweep = (now: number): void => {
    let dropped = 0;
    for (const [key, entry] of byAge) {
      if (entry.expiresAt > now || dropped === SWEEP_PER_WRITE) return;
      remove(key);
      dropped++;
    }
  };

  const evict = (): void => {
    for (const key of entries.keys()) {
      if (entries.size <= maxResponses && totalBytes <= maxBytes) return;
      remove(key);
    }
  };

  return {
    put(record) {
      const now = clock();
      sweep(now);
      const key = keyOf(record.owner, record.id);
      remove(key);
      const json = JSON.stringify(record);
      const bytes = Buffer.byteLength(json, 'utf8');
      if (bytes > maxBytes) return Promise.resolve();
      const copy = JSON.parse(json) as StoredResponse;
      const entry: Entry = { record: copy, items: itemsOf(copy), bytes, expiresAt: now + ttlMs };
      entries.set(key, entry);
      byAge.set(key, entry);
      totalBytes += bytes;
      for (const itemId of entry.items.keys()) {
        const indexKey = keyOf(copy.owner, itemId);
        const holders = itemIndex.get(indexKey);
        if (holders) holders.add(key);
        else itemIndex.set(indexKey, new Set([key]));
      }
      evict();
      return Promise.resolve();
    },

    get(owner, id) {
      const entry = use(keyOf(owner, id), clock());
      return Promise.resolve(entry && structuredClone(entry.record));
    },

    getItem(owner, itemId) {
      const found = findItem(owner, itemId, clock());
      return Promise.resolve(found && structuredClone(found.item));
    },

    getItems(owner, itemIds, { maxBytes: budget = Infinity } = {}) {
      const now = clock();
      const found: FoundItems = new Map<string, ResponseItem>();
      // The budget counts each holding record's JSON once, as a store that reads records would.
      const counted = new Set<Entry>();
      let bytes = 0;
      // One copy per distinct id, however often the caller names it.
      for (const itemId of itemIds) {
        if (found.has(itemId)) continue;
        const hit = findItem(owner, itemId, now);
        if (!hit) continue;
        if (!counted.has(hit.entry)) {
          counted.add(hit.entry);
          // The first record always (one record is what a previous_response_id reads too).
          if (counted.size > 1 && bytes + hit.entry.bytes > budget) {
            found.overBudget = true;
            break;
          }
          bytes += hit.entry.bytes;
        }
        found.set(itemId, structuredClone(hit.item));
      }
      return Promise.resolve(found);
    },

    delete(owner, id) {
      const key = keyOf(owner, id);
      const found = use(key, clock()) !== undefined;
      remove(key);
      return Promise.resolve(found);
    },
  };
}
