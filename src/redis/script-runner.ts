/**
 * Runs a Lua script on the Redis client the operator already has: ioredis
 * or node-redis (`redis` v4–v6), both optional peer dependencies. The Redis
 * stores (limits, responses) talk to Redis through scripts only, so one
 * small client shape serves every supported client.
 *
 * @internal
 */
import { createHash } from 'node:crypto';

/** The part of an ioredis client the Redis stores use. */
export interface IoRedisLike {
  evalsha(sha: string, numKeys: number, ...args: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
}

/** The part of a node-redis (`redis`) client the Redis stores use. */
export interface NodeRedisLike {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Runs `script` (whose SHA-1 is `sha`) with `keys` and `args`; resolves to Redis's reply. */
export type ScriptRunner = (script: string, sha: string, keys: string[], args: string[]) => Promise<unknown>;

/** The SHA-1 Redis names a script by (EVALSHA). */
export function scriptSha(script: string): string {
  return createHash('sha1').update(script).digest('hex');
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.includes('NOSCRIPT');
}

/**
 * EVALSHA, falling back to EVAL once when Redis does not have the script cached yet.
 *
 * @param entry The factory whose `client` this is, for the error (`redisLimitStore`).
 * @throws TypeError when `client` is neither kind of client.
 */
export function scriptRunner(client: IoRedisLike | NodeRedisLike, entry: string): ScriptRunner {
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
  throw new TypeError(`${entry}: \`client\` must be an ioredis or node-redis client (it needs evalsha / evalSha).`);
}
