/**
 * A {@link LimitStore} in Redis, shared by any number of gateway instances,
 * time from Redis. Reserves, settles and lease renewals are queued and go
 * out at the end of the next turn of the event loop, together in one atomic
 * script call, in the order they were made. Works with the client you already have: ioredis or
 * node-redis (`redis`), both optional peer dependencies.
 */
import type { LeaseRenewal, LimitStore } from './limit-store.js';
import { RedisBatch } from './redis-batch.js';
import { APPLY_SCRIPT } from './redis-scripts.js';
import { type IoRedisLike, type NodeRedisLike, scriptRunner, scriptSha } from '../redis/script-runner.js';
import { markShared } from '../shared-store.js';

export type { IoRedisLike, NodeRedisLike } from '../redis/script-runner.js';

/** Options of {@link redisLimitStore}. */
export interface RedisLimitStoreOptions {
  /** A connected ioredis (`new Redis(url)`) or node-redis (`await createClient({ url }).connect()`) client. */
  client: IoRedisLike | NodeRedisLike;
  /** Prefix of every key. Default `'modelgate:limits:'`. */
  prefix?: string;
  /**
   * Whether `client` talks to a Redis Cluster, where one script call may only
   * touch keys of one hash slot: the calls are then grouped per
   * principal instead of all together. Default: detected (ioredis `Cluster`,
   * node-redis `createCluster()`); set it for a cluster proxy the check cannot see.
   */
  cluster?: boolean;
}

/** The Redis Cluster hash tag of a key (`{principal}`), or undefined when it has none. */
function tagOf(key: string): string | undefined {
  if (key.charCodeAt(0) !== 123 /* { */) return undefined;
  const end = key.indexOf('}');
  return end > 1 ? key.slice(0, end + 1) : undefined;
}

/** The one tag all keys share, or undefined. */
function sharedTag(items: readonly { key: string }[]): string | undefined {
  const tag = tagOf(items[0]!.key);
  if (tag === undefined) return undefined;
  for (let i = 1; i < items.length; i++) if (!items[i]!.key.startsWith(tag)) return undefined;
  return tag;
}

/**
 * Operations (reservations, settles) per script call at most: a burst of
 * thousands in one turn goes out as several calls, each well inside the
 * store's time-out and the client's argument limits, rather than as one
 * call that all of them wait on.
 */
const MAX_BATCH = 128;

/** True for a Redis Cluster client: ioredis' `Cluster`, node-redis' `createCluster()`. */
function isClusterClient(client: object): boolean {
  return ('isCluster' in client && client.isCluster === true) || ('getMasters' in client && typeof client.getMasters === 'function');
}

/**
 * Creates a Redis-backed {@link LimitStore}. Keys are `prefix` + the
 * gateway's counter names; every counter expires once it is back to its
 * initial state, so idle principals leave nothing behind.
 *
 * Reserves and settles made in two turns of the event loop (the requests
 * that reached the limits step while the server handled two batches of
 * ready sockets) go out together at the end of the second, in one script
 * call (up to 128 per call): under load a request costs a fraction of a
 * round trip.
 * With a Cluster client they are grouped per principal (its keys share one
 * hash slot).
 *
 * @example
 * import { Redis } from 'ioredis';
 * const store = redisLimitStore({ client: new Redis(process.env.REDIS_URL!) });
 */
export function redisLimitStore(options: RedisLimitStoreOptions): LimitStore {
  const run = scriptRunner(options.client, 'redisLimitStore');
  const prefix = options.prefix ?? 'modelgate:limits:';
  const cluster = options.cluster ?? isClusterClient(options.client);
  const applySha = scriptSha(APPLY_SCRIPT);
  const batches = new Map<string, RedisBatch>();
  let flushScheduled = false;

  const send = (batch: RedisBatch): void => {
    run(APPLY_SCRIPT, applySha, batch.keys, batch.args()).then(
      (reply) => batch.deliver(reply),
      (error: unknown) => batch.fail(error),
    );
  };

  const flush = (): void => {
    flushScheduled = false;
    for (const batch of batches.values()) send(batch);
    batches.clear();
  };

  /**
   * Batches go out at the end of the turn after the one that started them.
   * Under load one turn handles only the requests whose sockets were ready
   * together (about 7 per turn in the bench), and every call's write wakes
   * Redis, often on another core (about 50 µs of the server's CPU per call
   * measured on a 2-core VM). One more turn about halves the calls per
   * request for a wait of one loop iteration, which an idle server passes
   * at once. (An immediate queued by an immediate runs in the next turn.)
   */
  const flushNextTurn = (): void => {
    setImmediate(flush);
  };

  /**
   * Queues one operation in the open batch for `items` (one per store, or per hash tag with a
   * Cluster client), scheduling its flush when the batch is new and sending it at once when full.
   * On a Cluster, keys without one shared hash tag go in a call of their own, at once (they may
   * live on different nodes).
   */
  const enqueue = <T>(items: readonly { key: string }[], add: (batch: RedisBatch) => Promise<T>): Promise<T> => {
    const group = cluster ? sharedTag(items) : '';
    if (group === undefined) {
      const alone = new RedisBatch(prefix);
      const result = add(alone);
      send(alone);
      return result;
    }
    let batch = batches.get(group);
    if (!batch) {
      batches.set(group, (batch = new RedisBatch(prefix)));
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flushNextTurn);
      }
    }
    const result = add(batch);
    if (batch.size >= MAX_BATCH) {
      batches.delete(group);
      send(batch);
    }
    return result;
  };

  return markShared({
    reserve(checks) {
      if (checks.length === 0) return Promise.resolve({ ok: true, now: Date.now(), states: [] });
      return enqueue(checks, (batch) => batch.reserve(checks));
    },
    settle(adjustments) {
      if (adjustments.length === 0) return Promise.resolve();
      return enqueue(adjustments, (batch) => batch.settle(adjustments));
    },
    renew(leases) {
      if (leases.length === 0) return Promise.resolve();
      if (!cluster) return enqueue(leases, (batch) => batch.renew(leases));
      // On a Cluster, one operation per principal (hash tag), so each call finds its keys on one node.
      const groups = new Map<string, LeaseRenewal[]>();
      for (const lease of leases) {
        const tag = tagOf(lease.key) ?? lease.key;
        const group = groups.get(tag);
        if (group) group.push(lease);
        else groups.set(tag, [lease]);
      }
      return Promise.all([...groups.values()].map((group) => enqueue(group, (batch) => batch.renew(group)))).then(() => undefined);
    },
  });
}
