/**
 * The response cache's shared shapes: what an entry holds, what a store
 * does, and what a request's controls and the policy decide. The key
 * (`cache-key.ts`), the replay (`record-answer`, `synthesize-answer`), the
 * stores and the pipeline (`cached-send.ts`) all meet here.
 */
import type { WireFormat } from '../types.js';

/** What the cache did for one request, as `x-modelgate-cache` says it. */
export type CacheResult = 'hit' | 'miss' | 'bypass';

/**
 * One cached answer: the complete, non-streamed answer of the upstream that
 * gave it, in that upstream's wire format (a `chat.completion` object or a
 * messages `message` object). A streamed answer is stored as the object the
 * same call would have returned unstreamed; a hit is replayed from it in
 * whichever mode the caller asks, through the same relay and translators as
 * a live answer.
 */
export interface CachedAnswer {
  /** Entry layout version; entries of another version are misses. */
  v: 1;
  /** Epoch ms when the answer was complete (the store's own clock gives the age when it has one). */
  createdAt: number;
  /** The wire format of `body`: the answering upstream's. */
  format: WireFormat;
  /** The name of the upstream that answered (for usage records; never an address). */
  upstream: string;
  /** The complete answer, as the upstream would have returned it unstreamed. */
  body: Record<string, unknown>;
}

/** A request's `Cache-Control` directives, as far as the cache honours them. */
export interface RequestCacheControl {
  /** `no-cache`: do not answer from the cache; store the fresh answer. */
  noCache: boolean;
  /** `no-store`: neither answer from nor store in the cache. */
  noStore: boolean;
  /** `max-age=N`: only entries at most N seconds old answer. */
  maxAgeSeconds?: number;
}

/** Why a request is neither looked up nor stored (`x-modelgate-cache: bypass`). */
export type CacheBypassReason =
  /** No `cache` option, `cache: false` on the route, or the model is not in `cache.models`. */
  | 'not-enabled'
  /** The request sent `Cache-Control: no-store`. */
  | 'no-store'
  /** A Responses call that reads stored state (`previous_response_id`, `item_reference`, a stored conversation). */
  | 'stored-state'
  /** A call whose upstream side effect a hit would skip (chat `store: true`). */
  | 'side-effect'
  /** Server-run tools, containers, MCP servers, web search: the answer depends on the world, not the request. */
  | 'server-tools'
  /** Something a replay cannot give back (log probabilities, audio output, `include` extras, several fanned-out choices). */
  | 'not-replayable';

/** What the policy decides for one request. */
export type CacheDecision =
  | { use: false; reason: CacheBypassReason }
  | {
      use: true;
      /** Look the request up (false under `no-cache`: go upstream, then store). */
      lookup: boolean;
      /** Oldest entry that may answer, in ms (from `max-age`), when limited. */
      maxAgeMs?: number;
    };

/** Options of {@link ResponseCacheStore.lookup}. */
export interface CacheLookupOptions {
  /** Entries older than this (ms) are not returned. */
  maxAgeMs?: number;
  /**
   * On a miss, try to take the key's fill lock for this many ms (a store
   * shared by instances lets one of them call the upstream while the
   * others wait). 0: do not lock.
   */
  lockMs: number;
  /** The caller's lock token, unique per lookup; `fill` and `release` delete the lock only while it still holds this token. */
  token: string;
}

/** What a lookup found. */
export interface CacheLookup {
  /** The serialised {@link CachedAnswer}, on a hit. */
  entry?: string;
  /** The entry's age in ms by the store's clock, on a hit. */
  ageMs?: number;
  /**
   * On a miss: `'lead'` when this caller took the fill lock (it calls the
   * upstream, then `fill`s or `release`s), `'wait'` when another holds it
   * (poll again), `'none'` when no lock was asked for or the store keeps none.
   */
  lock: 'lead' | 'wait' | 'none';
}

/** Options of {@link ResponseCacheStore.fill}. */
export interface CacheFillStoreOptions {
  ttlSeconds: number;
  /** The lock token of the lookup that missed. */
  token: string;
  /**
   * Whom the entry belongs to, for stores that share their room fairly: the
   * principal id under `scope: 'principal'`, `'shared'` under `scope:
   * 'shared'` (never a credential). A store may ignore it; the built-in ones
   * count an absent owner as one owner named `''`.
   */
  owner?: string;
}

/**
 * Where cached answers live. Keys are hex SHA-256 digests (`cacheKey`);
 * entries are opaque strings. A store may fail or be slow: the gateway
 * bounds every command and treats a failure as a miss, never as an error.
 */
export interface ResponseCacheStore {
  /** The store's default time to live in seconds, used when the gateway's `cache.ttlSeconds` is unset. */
  readonly ttlSeconds?: number;
  lookup(key: string, options: CacheLookupOptions): Promise<CacheLookup>;
  /**
   * Stores `entry` for `ttlSeconds` (whole seconds) and releases the lock
   * `token` holds, if it still does. A store may decline to keep the entry
   * (too big, its owner over a quota): the lock is released all the same.
   */
  fill(key: string, entry: string, options: CacheFillStoreOptions): Promise<void>;
  /** Releases the key's fill lock if `token` still holds it (the leader's call failed or was not cacheable). */
  release(key: string, token: string): Promise<void>;
  /** Bytes of entries held, for the `modelgate_cache_bytes` gauge (approximate for shared stores). */
  bytesHeld?(): number | Promise<number>;
}
