/**
 * A {@link LimitStore} in Redis, shared by any number of gateway instances:
 * one Lua script per reserve and one per settle (one round trip each), time
 * from Redis. Works with the client you already have: ioredis or node-redis
 * (`redis`), both optional peer dependencies.
 */
import { createHash } from 'node:crypto';
import type { CheckState, LimitAdjustment, LimitCheck, LimitStore, ReserveResult } from './limit-store.js';
import { RESERVE_SCRIPT, SETTLE_SCRIPT } from './redis-scripts.js';

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

function checkArgs(check: LimitCheck): string[] {
  switch (check.kind) {
    case 'bucket':
      return ['b', number(check.capacity), number(check.windowMs), number(check.amount)];
    case 'concurrency':
      return ['c', number(check.limit), number(check.leaseMs), check.leaseId];
    case 'budget':
      return ['q', number(check.limit), number(check.periodMs), number(check.amount)];
  }
}

function adjustmentArgs(adjustment: LimitAdjustment): string[] {
  switch (adjustment.kind) {
    case 'bucket':
      return ['b', number(adjustment.capacity), number(adjustment.windowMs), number(adjustment.delta)];
    case 'concurrency':
      return ['c', adjustment.leaseId, '0', '0'];
    case 'budget':
      return ['q', number(adjustment.periodMs), number(adjustment.period), number(adjustment.delta)];
  }
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
  return {
    async reserve(checks) {
      if (checks.length === 0) return { ok: true, now: Date.now(), states: [] };
      const keys = checks.map((check) => prefix + check.key);
      const reply = await run(RESERVE_SCRIPT, reserveSha, keys, checks.flatMap(checkArgs));
      return parseReserve(reply, checks.length);
    },
    async settle(adjustments) {
      if (adjustments.length === 0) return;
      const keys = adjustments.map((adjustment) => prefix + adjustment.key);
      await run(SETTLE_SCRIPT, settleSha, keys, adjustments.flatMap(adjustmentArgs));
    },
  };
}
