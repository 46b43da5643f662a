/**
 * A {@link ResponseStore} in Redis, shared by every gateway instance: a
 * follow-up turn finds its `previous_response_id` whichever instance it
 * reaches. Works with the client you already have: ioredis or node-redis
 * (`redis`), both optional peer dependencies.
 */
import { assertOptions } from '../options/parse-options.js';
import { redisResponseStoreOptionsSchema } from '../options/response-store-schema.js';
import { type IoRedisLike, type NodeRedisLike, scriptRunner, scriptSha } from '../redis/script-runner.js';
import { DEFAULT_RESPONSE_TTL_MS } from './default-response-ttl.js';
import { itemsOf } from './items-of.js';
import { DELETE_SCRIPT, GET_EACH_SCRIPT, GET_SCRIPT, HOLDERS_OF_EACH_SCRIPT, HOLDERS_SCRIPT, PUT_SCRIPT } from './redis-response-scripts.js';
import type { FoundItems, ResponseItem, ResponseStore, StoredResponse } from './response-store.js';
import { markShared } from '../shared-store.js';

/** Options of {@link redisResponseStore}. */
export interface RedisResponseStoreOptions {
  /** A connected ioredis (`new Redis(url)`) or node-redis (`await createClient({ url }).connect()`) client; a Cluster client works too. */
  client: IoRedisLike | NodeRedisLike;
  /** Ms a response lives after its `put` (Redis expires its keys; reads do not extend it). Default 24 hours. */
  ttlMs?: number;
  /** Prefix of every key, without `{` or `}`. Default `'modelgate:responses:'`. */
  prefix?: string;
}

const PUT_SHA = scriptSha(PUT_SCRIPT);
const GET_SHA = scriptSha(GET_SCRIPT);
const DELETE_SHA = scriptSha(DELETE_SCRIPT);
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

function parseRecord(json: unknown, owner: string, id: string): StoredResponse | undefined {
  if (typeof json !== 'string') return undefined;
  const record = JSON.parse(json) as StoredResponse | null;
  // The key already names the owner; the record says so too, and a read believes both or nothing.
  return typeof record === 'object' && record !== null && record.owner === owner && record.id === id ? record : undefined;
}

/**
 * Creates a Redis-backed {@link ResponseStore}. Values are plain JSON:
 *
 * - `{prefix}resp:{<owner>}:<response id>` holds the record's JSON;
 * - `{prefix}item:{<owner>}:<item id>` is a sorted set of the ids of the
 *   owner's responses holding that input or output item, scored by their
 *   expiry (a chain repeats its earlier items, so one item may be in many).
 *
 * All keys expire `ttlMs` after the write (an item's set with its
 * longest-lived response). A `put` writes the record and its items' entries
 * in one script call, atomically, and resolves once Redis has them: a `get`
 * from any instance then finds the record, and no reader finds an item's
 * entry before its record. `delete` removes the record; its items' entries
 * then point to nothing and lookups skip them (an item also held by another
 * response still resolves to that one). An item held by several responses
 * resolves to the copy stored last (when every instance has the same
 * `ttlMs`). Every read checks the owner. `getItems` (a request's
 * references) reads the index of every id in one call and each holding
 * record once, in a second: a chain's items, all held by its last record,
 * cost one `GET` and one parse. Redis looks at each record's size before
 * sending it, and stops at the lookup's `maxBytes`: a request makes the
 * gateway read at most that many bytes of records, or its first record.
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
 * const responseStore = redisResponseStore({ client: new Redis(process.env.REDIS_URL!) });
 */
export function redisResponseStore(options: RedisResponseStoreOptions): ResponseStore {
  assertOptions(redisResponseStoreOptionsSchema, options, 'redisResponseStore');
  const run = scriptRunner(options.client, 'redisResponseStore');
  const ttl = String(options.ttlMs ?? DEFAULT_RESPONSE_TTL_MS);
  const prefix = options.prefix ?? 'modelgate:responses:';
  const recordKey = (owner: string, id: string): string => `${prefix}resp:{${ownerTag(owner)}}:${id}`;
  const itemKey = (owner: string, itemId: string): string => `${prefix}item:{${ownerTag(owner)}}:${itemId}`;

  const get = async (owner: string, id: string): Promise<StoredResponse | undefined> =>
    parseRecord(await run(GET_SCRIPT, GET_SHA, [recordKey(owner, id)], []), owner, id);

  return markShared({
    async put(record) {
      const keys = [recordKey(record.owner, record.id)];
      for (const itemId of itemsOf(record).keys()) keys.push(itemKey(record.owner, itemId));
      await run(PUT_SCRIPT, PUT_SHA, keys, [JSON.stringify(record), ttl, record.id]);
    },

    get,

    async getItem(owner, itemId) {
      const holders = await run(HOLDERS_SCRIPT, HOLDERS_SHA, [itemKey(owner, itemId)], []);
      if (!Array.isArray(holders)) return undefined;
      for (const id of holders) {
        if (typeof id !== 'string') continue;
        const record = await get(owner, id);
        // Gone (deleted) or replaced by a version without the item: the next holder may have it.
        const item = record && itemsOf(record).get(itemId);
        if (item) return item;
      }
      return undefined;
    },

    async getItems(owner, itemIds, { maxBytes = Infinity } = {}) {
      const found: FoundItems = new Map<string, ResponseItem>();
      const distinct = [...new Set(itemIds)];
      if (distinct.length === 0) return found;
      const lists = await run(HOLDERS_OF_EACH_SCRIPT, HOLDERS_OF_EACH_SHA, distinct.map((itemId) => itemKey(owner, itemId)), []);
      let pending: Pending[] = distinct.map((itemId, i) => ({ itemId, holders: stringsOf(Array.isArray(lists) ? lists[i] : undefined), next: 0 }));
      // Each record read once, parsed once and indexed once, whatever number of ids it holds (a chain's
      // last record holds every earlier turn's items); a missing or replaced one is an empty index.
      const records = new Map<string, Map<string, ResponseItem>>();
      // Redis checks each record's size before reading it: the records read pass the budget only when
      // the first one alone does (one record is what a previous_response_id reads too).
      let left = maxBytes;
      for (;;) {
        pending = pending.filter((entry) => entry.next < entry.holders.length);
        if (pending.length === 0) return found;
        const wanted = [...new Set(pending.map((entry) => entry.holders[entry.next]!))].filter((id) => !records.has(id));
        if (wanted.length > 0) {
          const budget = Number.isFinite(left) ? String(Math.max(0, Math.floor(left))) : '-1';
          const started = left < maxBytes ? '1' : '0';
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
      return (await run(DELETE_SCRIPT, DELETE_SHA, [recordKey(owner, id)], [])) === 1;
    },
  });
}
