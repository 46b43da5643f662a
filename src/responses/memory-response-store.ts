/**
 * The in-process {@link ResponseStore}: one gateway instance, gone with the
 * process. Bounded by count and by bytes, shared fairly between owners,
 * and by age: a response expires `ttlMs` after it was stored. Expired
 * responses are dropped when read, and a few at each write; there is no
 * timer, so the store never keeps a process alive.
 */
import { assertOptions } from '../options/parse-options.js';
import { memoryResponseStoreOptionsSchema } from '../options/response-store-schema.js';
import { DEFAULT_RESPONSE_TTL_MS } from './default-response-ttl.js';
import { itemsOf } from './items-of.js';
import { largestOwner } from './largest-owner.js';
import { joinChain, type KeptRecord, linkOf, linkedPart } from './response-chain.js';
import type { MemoryResponseStoreOptions } from './response-store-options.js';
import type { FoundItems, ResponseItem, ResponseStore } from './response-store.js';

/**
 * Responses kept at most by default. A response is read back by the next
 * turn of its conversation, usually within minutes: ten thousand covers
 * the conversations of a busy instance over that time.
 */
const DEFAULT_MAX_RESPONSES = 10_000;

/**
 * JSON bytes kept at most by default: 64 MiB. A response keeps the items
 * its turn added and a link to the one before (not the conversation
 * again): an agent's turn is a few KB to a few hundred (tool results), so
 * 64 MiB keeps long sessions of many callers, a modest share of a server's
 * memory. The heap holds the parsed records, a few times their JSON size.
 */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Expired responses dropped at most per write. Responses expire in the
 * order they were written (or their conversation was continued), so each
 * write drops the oldest expired ones; a bound keeps a write after a long
 * idle spell (thousands expired at once) as quick as any other, and the
 * rest go on later writes or as they are read.
 */
const SWEEP_PER_WRITE = 100;

interface Entry {
  /** The store's own copy (of a linked record, its own items only: `linkedPart`), never handed out. */
  record: KeptRecord;
  /** Its own input and output items by id (an output item wins over an input item of the same id). */
  items: Map<string, ResponseItem>;
  bytes: number;
  expiresAt: number;
  /** The id of the response it continues, whose chain rebuilds its input; absent for a record kept whole. */
  link?: string;
}

/** What one owner keeps: its entries by key, least recently used first, and their bytes. */
interface Holding {
  entries: Map<string, Entry>;
  bytes: number;
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
 * replaces is gone too). An item id found in several responses resolves
 * while any of them remains, to the copy in the one stored last.
 *
 * Conversations: a response that continues another
 * (`StoredResponse.previous`) keeps its own items and a link; `get`
 * rebuilds its input from the chain, and storing it renews the chain's
 * responses (their TTL starts anew, and they count as used). When an
 * earlier response of the chain is gone (deleted or evicted), `get` misses.
 *
 * Fairness: when a write passes `maxResponses` or `maxBytes`, the store
 * drops the least recently used response of the owner that holds the
 * largest part of it (its count or its bytes, whichever is the larger
 * share of its bound). One owner filling the store then drops its own
 * responses, not another's, once it holds more than any other; finding
 * that owner costs O(log owners).
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

  const entries = new Map<string, Entry>();
  const holdings = new Map<string, Holding>();
  const largest = largestOwner();
  /** The same entries in the order they expire (written, or renewed by a later turn of their conversation). */
  const byAge = new Map<string, Entry>();
  /** keyOf(owner, item id) → keys of the responses holding that item, in the order they were stored. */
  const itemIndex = new Map<string, Set<string>>();
  let totalBytes = 0;

  const rank = (owner: string, holding: Holding): void => {
    largest.set(owner, Math.max(holding.entries.size / maxResponses, holding.bytes / maxBytes));
  };

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    const owner = entry.record.owner;
    entries.delete(key);
    byAge.delete(key);
    totalBytes -= entry.bytes;
    const holding = holdings.get(owner)!;
    holding.entries.delete(key);
    holding.bytes -= entry.bytes;
    if (holding.entries.size === 0) holdings.delete(owner);
    rank(owner, holding);
    for (const itemId of entry.items.keys()) {
      const indexKey = keyOf(owner, itemId);
      const holders = itemIndex.get(indexKey);
      holders?.delete(key);
      if (holders?.size === 0) itemIndex.delete(indexKey);
    }
  };

  const add = (key: string, entry: Entry): void => {
    const owner = entry.record.owner;
    entries.set(key, entry);
    byAge.set(key, entry);
    totalBytes += entry.bytes;
    let holding = holdings.get(owner);
    if (holding === undefined) holdings.set(owner, (holding = { entries: new Map(), bytes: 0 }));
    holding.entries.set(key, entry);
    holding.bytes += entry.bytes;
    rank(owner, holding);
    for (const itemId of entry.items.keys()) {
      const indexKey = keyOf(owner, itemId);
      const holders = itemIndex.get(indexKey);
      if (holders) holders.add(key);
      else itemIndex.set(indexKey, new Set([key]));
    }
  };

  /** The live entry under `key`, now its owner's most recently used; an expired one is dropped. */
  const use = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      remove(key);
      return undefined;
    }
    const own = holdings.get(entry.record.owner)!.entries;
    own.delete(key);
    own.set(key, entry);
    return entry;
  };

  /** The chain ending at `key`, earliest first, each entry used; undefined when a link of it is gone. */
  const chainOf = (owner: string, key: string, now: number): Entry[] | undefined => {
    const chain: Entry[] = [];
    let entry = use(key, now);
    while (entry !== undefined) {
      chain.push(entry);
      if (entry.link === undefined) return chain.reverse();
      // A chain cannot be longer than what the owner holds; longer means a loop (ids put again).
      if (chain.length > (holdings.get(owner)?.entries.size ?? 0)) return undefined;
      entry = use(keyOf(owner, entry.link), now);
    }
    return undefined;
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
    while (entries.size > maxResponses || totalBytes > maxBytes) {
      const owner = largest.top();
      const victim = owner === undefined ? undefined : holdings.get(owner)?.entries.keys().next().value;
      if (victim === undefined) return;
      remove(victim);
    }
  };

  /** A chain continued: its responses live `ttlMs` from now, like the new one. */
  const renew = (chain: readonly Entry[], owner: string, expiresAt: number): void => {
    for (const entry of chain) {
      const key = keyOf(owner, entry.record.id);
      entry.expiresAt = expiresAt;
      byAge.delete(key);
      byAge.set(key, entry);
    }
  };

  return {
    put(record) {
      const now = clock();
      sweep(now);
      const key = keyOf(record.owner, record.id);
      remove(key);
      const link = linkOf(record);
      // Kept as a link when the chain it continues is all here; else whole, so that it stands on its own.
      const chain = link === undefined ? undefined : chainOf(record.owner, keyOf(record.owner, link), now);
      const json = JSON.stringify(chain ? linkedPart(record) : record);
      const bytes = Buffer.byteLength(json, 'utf8');
      if (bytes > maxBytes) return Promise.resolve();
      const copy = JSON.parse(json) as KeptRecord;
      const expiresAt = now + ttlMs;
      if (chain) renew(chain, record.owner, expiresAt);
      add(key, { record: copy, items: itemsOf(copy), bytes, expiresAt, ...(chain ? { link } : {}) });
      evict();
      return Promise.resolve();
    },

    get(owner, id) {
      const chain = chainOf(owner, keyOf(owner, id), clock());
      const record = chain && joinChain(chain.map((entry) => entry.record));
      return Promise.resolve(record && structuredClone(record));
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
