/**
 * A {@link LimitStore} in Redis, shared by any number of gateway instances:
 * one Lua script call per request, time from Redis. A settle is queued and
 * rides with the next reserve of the same principal (applied first, in the
 * same atomic script), or, when none comes in the same turn of the event
 * loop, goes out with the other queued settles of that principal in one
 * call. Works with the client you already have: ioredis or node-redis
 * (`redis`), both optional peer dependencies.
 */
import { createHash } from 'node:crypto';
import type { CheckState, LeaseRenewal, LimitAdjustment, LimitCheck, LimitStore, ReserveResult } from './limit-store.js';
import { RENEW_SCRIPT, RESERVE_SCRIPT, SETTLE_SCRIPT } from './redis-scripts.js';

/** The part of an ioredis client the store uses. */
export interface IoRedisLike {
  evalsha(sha: string, numKeys: number, ...args: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
}

/** The part of a node-redis (`redis`) client the store uses. */
export interface NodeRedisLike {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Options of {@link redisLimitStore}. */
export interface RedisLimitStoreOptions {
  /** A connected ioredis (`new Redis(url)`) or node-redis (`await createClient({ url }).connect()`) client. */
  client: IoRedisLike | NodeRedisLike;
  /** Prefix of every key. Default `'modelgate:limits:'`. */
  prefix?: string;
}

type Runner = (script: string, sha: string, keys: string[], args: string[]) => Promise<unknown>;

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.includes('NOSCRIPT');
}

/** EVALSHA, falling back to EVAL once when Redis does not have the script cached yet. */
function runnerFor(client: IoRedisLike | NodeRedisLike): Runner {
  if ('evalsha' in client && typeof client.evalsha === 'function') {
    const io = client as IoRedisLike;
    return async (script, sha, keys, args) => {
      try {
        return await io.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!isNoScript(error)) throw error;
        return io.eval(script, keys.length, ...keys, ...args);
      }
    };
  }
  if ('evalSha' in client && typeof client.evalSha === 'function') {
    const node = client as NodeRedisLike;
    return async (script, sha, keys, args) => {
      try {
        return await node.evalSha(sha, { keys, arguments: args });
      } catch (error) {
        if (!isNoScript(error)) throw error;
        return node.eval(script, { keys, arguments: args });
      }
    };
  }
  throw new TypeError('redisLimitStore: `client` must be an ioredis or node-redis client (it needs evalsha / evalSha).');
}

function number(value: number): string {
  return Number.isFinite(value) ? String(value) : '0';
}

function pushCheck(args: string[], check: LimitCheck): void {
  switch (check.kind) {
    case 'bucket':
      args.push('b', number(check.capacity), number(check.windowMs), number(check.amount));
      return;
    case 'concurrency':
      args.push('c', number(check.limit), number(check.leaseMs), check.leaseId);
      return;
    case 'budget':
      args.push('q', number(check.limit), number(check.periodMs), number(check.amount));
  }
}

function pushAdjustment(args: string[], adjustment: LimitAdjustment): void {
  switch (adjustment.kind) {
    case 'bucket':
      args.push('b', number(adjustment.capacity), number(adjustment.windowMs), number(adjustment.delta));
      return;
    case 'concurrency':
      args.push('c', adjustment.leaseId, '0', '0');
      return;
    case 'budget':
      args.push('q', number(adjustment.periodMs), number(adjustment.period), number(adjustment.delta));
  }
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

/** Settles waiting to be sent, for one hash tag. */
interface SettleQueue {
  keys: string[];
  args: string[];
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

function parseReserve(reply: unknown, count: number): ReserveResult {
  if (!Array.isArray(reply) || reply.length !== 2 + count * 4) throw new Error('redisLimitStore: unexpected reply from the reserve script.');
  const values = reply.map(Number);
  const states: CheckState[] = [];
  for (let i = 0; i < count; i++) {
    const at = 2 + i * 4;
    states.push({ remaining: values[at]!, resetMs: values[at + 1]!, retryAfterMs: values[at + 2]!, period: values[at + 3]! });
  }
  return { now: values[0]!, ok: values[1] === 1, states };
}

/**
 * Creates a Redis-backed {@link LimitStore}. Keys are `prefix` + the
 * gateway's counter names; every counter expires once it is back to its
 * initial state, so idle principals leave nothing behind.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const store = redisLimitStore({ client: new Redis(process.env.REDIS_URL!) });
 */
export function redisLimitStore(options: RedisLimitStoreOptions): LimitStore {
  const run = runnerFor(options.client);
  const prefix = options.prefix ?? 'modelgate:limits:';
  const reserveSha = sha1(RESERVE_SCRIPT);
  const settleSha = sha1(SETTLE_SCRIPT);
  const renewSha = sha1(RENEW_SCRIPT);
  const queues = new Map<string, SettleQueue>();
  let flushScheduled = false;

  const send = (queue: SettleQueue, reply: Promise<unknown>): void => {
    reply.then(
      () => {
        for (const waiter of queue.waiters) waiter.resolve();
      },
      (error: unknown) => {
        for (const waiter of queue.waiters) waiter.reject(error);
      },
    );
  };

  // Whatever no reserve took along goes out at the end of this turn of the event loop, one call per principal.
  const flush = (): void => {
    flushScheduled = false;
    for (const queue of queues.values()) send(queue, run(SETTLE_SCRIPT, settleSha, queue.keys, queue.args));
    queues.clear();
  };

  return {
    async reserve(checks) {
      if (checks.length === 0) return { ok: true, now: Date.now(), states: [] };
      const tag = sharedTag(checks);
      const queue = tag === undefined ? undefined : queues.get(tag);
      if (queue) queues.delete(tag!);
      const keys: string[] = queue ? queue.keys : [];
      const args: string[] = [queue ? String(queue.keys.length) : '0'];
      if (queue) for (const value of queue.args) args.push(value);
      for (const check of checks) {
        keys.push(prefix + check.key);
        pushCheck(args, check);
      }
      const reply = run(RESERVE_SCRIPT, reserveSha, keys, args);
      if (queue) send(queue, reply);
      return parseReserve(await reply, checks.length);
    },
    settle(adjustments) {
      if (adjustments.length === 0) return Promise.resolve();
      const tag = sharedTag(adjustments);
      if (tag === undefined) {
        // Keys without one shared hash tag (a custom layout): sent on their own, as they may live on different nodes.
        const keys: string[] = [];
        const args: string[] = [];
        for (const adjustment of adjustments) {
          keys.push(prefix + adjustment.key);
          pushAdjustment(args, adjustment);
        }
        return run(SETTLE_SCRIPT, settleSha, keys, args).then(() => undefined);
      }
      let queue = queues.get(tag);
      if (!queue) queues.set(tag, (queue = { keys: [], args: [], waiters: [] }));
      for (const adjustment of adjustments) {
        queue.keys.push(prefix + adjustment.key);
        pushAdjustment(queue.args, adjustment);
      }
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
      const waiters = queue.waiters;
      return new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
    },
    async renew(leases) {
      // One call per principal (hash tag), so a Redis Cluster finds each call's keys on one node.
      const groups = new Map<string, LeaseRenewal[]>();
      for (const lease of leases) {
        const tag = tagOf(lease.key) ?? lease.key;
        const group = groups.get(tag);
        if (group) group.push(lease);
        else groups.set(tag, [lease]);
      }
      await Promise.all(
        [...groups.values()].map((group) =>
          run(RENEW_SCRIPT, renewSha, group.map((lease) => prefix + lease.key), group.flatMap((lease) => [lease.leaseId, number(lease.leaseMs)])),
        ),
      );
    },
  };
}
