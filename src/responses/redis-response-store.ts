/**
 * A {@link ResponseStore} in Redis, shared by every gateway instance: a
 * follow-up turn finds its `previous_response_id` whichever instance it
 * reaches. Works with the client you already have: ioredis or node-redis
 * (`redis`), both optional peer dependencies.
 */
import { assertOptions } from '../options/parse-options.js';
import { redisResponseStoreOptionsSchema } from '../options/response-store-schema.js';
import { scriptRunner, scriptSha } from '../redis/script-runner.js';
import { DEFAULT_RESPONSE_TTL_MS } from './default-response-ttl.js';
import { itemsOf } from './items-of.js';
import { CHAIN_SCRIPT, DELETE_SCRIPT, GET_EACH_SCRIPT, HOLDERS_OF_EACH_SCRIPT, HOLDERS_SCRIPT, PUT_SCRIPT, ROOM_SCRIPT } from './redis-response-scripts.js';
import { joinChain, type KeptRecord, linkOf, linkedPart } from './response-chain.js';
import type { RedisResponseStoreOptions } from './response-store-options.js';
import type { FoundItems, ResponseItem, ResponseStore, StoredResponse } from './response-store.js';
import { markShared } from '../shared-store.js';
import { responseStoreFull } from './responses-errors.js';

/**
 * Responses one owner keeps at most by default. It also bounds how long a
 * chain can be, so how far Redis walks a conversation's links in one call.
 */
const DEFAULT_MAX_RESPONSES_PER_OWNER = 10_000;

/**
 * Bytes one owner keeps at most by default: 64 MiB, what a whole
 * `memoryResponseStore` keeps. A turn keeps its own items (a few KB; a
 * large tool result, more), so this is hours of a busy agent's sessions.
 */
const DEFAULT_MAX_BYTES_PER_OWNER = 64 * 1024 * 1024;

const PUT_SHA = scriptSha(PUT_SCRIPT);
const CHAIN_SHA = scriptSha(CHAIN_SCRIPT);
const DELETE_SHA = scriptSha(DELETE_SCRIPT);
const ROOM_SHA = scriptSha(ROOM_SCRIPT);
const HOLDERS_SHA = scriptSha(HOLDERS_SCRIPT);
const HOLDERS_OF_EACH_SHA = scriptSha(HOLDERS_OF_EACH_SCRIPT);
const GET_EACH_SHA = scriptSha(GET_EACH_SCRIPT);

/** One id of a batch lookup: the responses that may hold it, stored last first, and which one is tried next. */
interface Pending {
  itemId: string;
  holders: string[];
  next: number;
}

function stringsOf(reply: unknown): string[] {
  return Array.isArray(reply) ? reply.filter((value): value is string => typeof value === 'string') : [];
}

/**
 * The owner as a hash tag's content: `%`, `{`, `}` and `:` escaped, so that
 * the tag ends where the owner does and no two owners share a key.
 */
function ownerTag(owner: string): string {
  return owner.replace(/[%{}:]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function parseRecord(json: unknown, owner: string, id: string): KeptRecord | undefined {
  if (typeof json !== 'string') return undefined;
  const record = JSON.parse(json) as KeptRecord | null;
  // The key already names the owner; the record says so too, and a read believes both or nothing.
  return typeof record === 'object' && record !== null && record.owner === owner && record.id === id ? record : undefined;
}

/**
 * Creates a Redis-backed {@link ResponseStore}. Values are plain JSON:
 *
 * - `{prefix}resp:{<owner>}:<response id>` holds the record's JSON (of a
 *   response that continues another, its own items only);
 * - `{prefix}item:{<owner>}:<item id>` is a sorted set of the ids of the
 *   owner's responses holding that input or output item, scored by their
 *   expiry;
 * - `{prefix}owner:{<owner>}`, `sizes:`, `bytes:` and `links:` are the
 *   owner's bookkeeping: its responses by expiry, their sizes and total
 *   (the quotas), and which response each continues.
 *
 * Conversations are kept as links: a response that continues another
 * (`StoredResponse.previous`) stores the items its turn added and the id
 * of the one before, so what a conversation stores grows linearly with its
 * turns; `get` walks the links (one script call) and reads the chain's
 * records (a second). Storing a turn renews the chain before it (its
 * records and items live `ttlMs` from the latest turn). When an earlier
 * response of the chain is gone (deleted, or expired), `get` misses.
 *
 * Quotas: an owner keeps at most `maxResponsesPerOwner` responses and
 * about `maxBytesPerOwner` bytes (the record that crosses the line is
 * kept). `checkRoom` (called before the upstream) and `put` refuse past
 * them with a 400 whose message names the option. The check and the write
 * are one script, atomic for every instance.
 *
 * All keys expire `ttlMs` after the write (an item's set with its
 * longest-lived response). A `put` resolves once Redis has it: a `get`
 * from any instance then finds the record, and no reader finds an item's
 * entry before its record. An item held by several responses resolves to
 * the copy stored (or renewed) last, among its newest
 * 32 holders. Every read checks the owner. `getItems` (a
 * request's references) reads the index of every id in one call and each
 * holding record once, in a second; Redis looks at each record's size
 * before sending it, and stops at the lookup's `maxBytes`.
 *
 * Redis Cluster: `<owner>` (escaped) is each key's hash tag, so all keys of
 * one owner sit in one hash slot, and every script call (which names all
 * its keys) runs on one node; the store then works unchanged with a Cluster
 * client. The cost: one owner's responses live on one node. Keep `{` and `}`
 * out of `prefix` (checked).
 *
 * @throws GatewayConfigError when an option is wrong (no client, a TTL that is not a number, ...).
 * @example
 * import { Redis } from 'ioredis';
 * const responseStore = redisResponseStore({ client: new Redis(process.env.REDIS_URL!), maxResponsesPerOwner: 5_000 });
 */
export function redisResponseStore(options: RedisResponseStoreOptions): ResponseStore {
  assertOptions(redisResponseStoreOptionsSchema, options, 'redisResponseStore');
  const run = scriptRunner(options.client, 'redisResponseStore');
  const ttl = String(options.ttlMs ?? DEFAULT_RESPONSE_TTL_MS);
  const prefix = options.prefix ?? 'modelgate:responses:';
  const maxResponses = options.maxResponsesPerOwner ?? DEFAULT_MAX_RESPONSES_PER_OWNER;
  const maxBytes = options.maxBytesPerOwner ?? DEFAULT_MAX_BYTES_PER_OWNER;
  const recordKey = (owner: string, id: string): string => `${prefix}resp:{${ownerTag(owner)}}:${id}`;
  const itemKey = (owner: string, itemId: string): string => `${prefix}item:{${ownerTag(owner)}}:${itemId}`;
  const ownerKeys = (owner: string): string[] => ['owner', 'sizes', 'bytes', 'links'].map((kind) => `${prefix}${kind}:{${ownerTag(owner)}}`);
  const linksKey = (owner: string): string => ownerKeys(owner)[3]!;

  /** The record's JSON (when `read`) and the ids of its chain, latest first; undefined ids when the chain is longer than an owner may keep (a loop). */
  const chainIds = async (owner: string, id: string, options: { read: boolean }): Promise<{ json: unknown; ids: string[] | undefined }> => {
    const reply = await run(CHAIN_SCRIPT, CHAIN_SHA, [linksKey(owner), recordKey(owner, id)], [id, String(maxResponses), options.read ? '1' : '0']);
    const [json, ...rest] = Array.isArray(reply) ? reply : [];
    const ids = stringsOf(rest);
    return { json, ids: ids.length > maxResponses ? undefined : ids };
  };

  const get = async (owner: string, id: string): Promise<StoredResponse | undefined> => {
    const { json, ids } = await chainIds(owner, id, { read: true });
    const last = parseRecord(json, owner, id);
    if (!last || !ids) return undefined;
    if (ids.length === 1) return joinChain([last]);
    const earlier = ids.slice(1);
    const reply = await run(GET_EACH_SCRIPT, GET_EACH_SHA, earlier.map((each) => recordKey(owner, each)), ['-1', '0']);
    const [, , ...jsons] = Array.isArray(reply) ? reply : [];
    const chain = [last];
    for (const [i, each] of earlier.entries()) {
      const record = parseRecord(jsons[i], owner, each);
      // An earlier turn is gone: the input can no longer be rebuilt.
      if (!record) return undefined;
      chain.push(record);
    }
    return joinChain(chain.reverse());
  };

  const refuse = (reply: unknown): void => {
    if (!Array.isArray(reply) || reply[0] !== 0) return;
    const kind = reply[1];
    if (kind === 'count') throw responseStoreFull({ kind, max: maxResponses });
    if (kind === 'size') throw responseStoreFull({ kind, max: maxBytes, size: Number(reply[2]) });
    throw responseStoreFull({ kind: 'bytes', max: maxBytes });
  };

  /** One PUT call: the record whole (`ancestors` empty) or as a link to the chain `ancestors` (latest first). */
  const write = async (record: StoredResponse, ancestors: readonly string[]): Promise<unknown> => {
    const { owner } = record;
    const kept = ancestors.length > 0 ? linkedPart(record) : record;
    const json = JSON.stringify(kept);
    const own = [...itemsOf(kept).keys()];
    const earlier = ancestors.length > 0 ? record.input.slice(0, record.previous?.items ?? 0) : [];
    const chained = [...new Set(earlier.map((item) => item.id))].filter((itemId) => !own.includes(itemId));
    const keys = [
      ...ownerKeys(owner),
      recordKey(owner, record.id),
      ...ancestors.map((id) => recordKey(owner, id)),
      ...chained.map((itemId) => itemKey(owner, itemId)),
      ...own.map((itemId) => itemKey(owner, itemId)),
    ];
    const args = [json, ttl, record.id, ancestors[0] ?? '', String(ancestors.length), String(chained.length), String(maxResponses), String(maxBytes), String(Buffer.byteLength(json, 'utf8')), ...ancestors];
    return run(PUT_SCRIPT, PUT_SHA, keys, args);
  };

  return markShared({
    async checkRoom(owner) {
      const reply = await run(ROOM_SCRIPT, ROOM_SHA, ownerKeys(owner), []);
      const [responses, bytes] = Array.isArray(reply) ? reply.map(Number) : [];
      if ((responses ?? 0) >= maxResponses) throw responseStoreFull({ kind: 'count', max: maxResponses });
      if ((bytes ?? 0) >= maxBytes) throw responseStoreFull({ kind: 'bytes', max: maxBytes });
    },

    async put(record) {
      const link = linkOf(record);
      // The chain it continues, when all of it is here (the script checks again, atomically); else the record is kept whole.
      const chain = link === undefined ? undefined : (await chainIds(record.owner, link, { read: false })).ids;
      let reply = await write(record, chain ?? []);
      if (Array.isArray(reply) && reply[0] === -1) reply = await write(record, []);
      refuse(reply);
    },

    get,

    async getItem(owner, itemId) {
      const holders = await run(HOLDERS_SCRIPT, HOLDERS_SHA, [itemKey(owner, itemId)], []);
      if (!Array.isArray(holders)) return undefined;
      for (const id of holders) {
        if (typeof id !== 'string') continue;
        const reply = await run(GET_EACH_SCRIPT, GET_EACH_SHA, [recordKey(owner, id)], ['-1', '0']);
        const record = parseRecord(Array.isArray(reply) ? reply[2] : undefined, owner, id);
        // Gone (deleted) or replaced by a version without the item: the next holder may have it.
        const item = record && itemsOf(record).get(itemId);
        if (item) return item;
      }
      return undefined;
    },

    async getItems(owner, itemIds, { maxBytes: budgetBytes = Infinity } = {}) {
      const found: FoundItems = new Map<string, ResponseItem>();
      const distinct = [...new Set(itemIds)];
      if (distinct.length === 0) return found;
      const lists = await run(HOLDERS_OF_EACH_SCRIPT, HOLDERS_OF_EACH_SHA, distinct.map((itemId) => itemKey(owner, itemId)), []);
      let pending: Pending[] = distinct.map((itemId, i) => ({ itemId, holders: stringsOf(Array.isArray(lists) ? lists[i] : undefined), next: 0 }));
      // Each record read once, parsed once and indexed once, whatever number of ids it holds; a missing
      // or replaced one is an empty index.
      const records = new Map<string, Map<string, ResponseItem>>();
      // Redis checks each record's size before reading it: the records read pass the budget only when
      // the first one alone does (one record is what a previous_response_id reads too).
      let left = budgetBytes;
      for (;;) {
        pending = pending.filter((entry) => entry.next < entry.holders.length);
        if (pending.length === 0) return found;
        const wanted = [...new Set(pending.map((entry) => entry.holders[entry.next]!))].filter((id) => !records.has(id));
        if (wanted.length > 0) {
          const budget = Number.isFinite(left) ? String(Math.max(0, Math.floor(left))) : '-1';
          const started = left < budgetBytes ? '1' : '0';
          const reply = await run(GET_EACH_SCRIPT, GET_EACH_SHA, wanted.map((id) => recordKey(owner, id)), [budget, started]);
          const [read, stopped, ...replies] = Array.isArray(reply) ? reply : [];
          left -= Number(read ?? 0);
          wanted.slice(0, replies.length).forEach((id, i) => {
            const record = parseRecord(replies[i], owner, id);
            records.set(id, record ? itemsOf(record) : new Map());
          });
          // Stopped before a record that would pass the budget: what the records read hold, and no more.
          if (stopped === 1) {
            for (const entry of pending) {
              const item = records.get(entry.holders[entry.next]!)?.get(entry.itemId);
              if (item) found.set(entry.itemId, item);
            }
            found.overBudget = true;
            return found;
          }
        }
        // Gone (deleted) or replaced by a version without the item: the id tries its next holder next round.
        pending = pending.filter((entry) => {
          const item = records.get(entry.holders[entry.next]!)?.get(entry.itemId);
          if (item) found.set(entry.itemId, item);
          else entry.next++;
          return item === undefined;
        });
      }
    },

    async delete(owner, id) {
      return (await run(DELETE_SCRIPT, DELETE_SHA, [...ownerKeys(owner), recordKey(owner, id)], [id])) === 1;
    },
  });
}
