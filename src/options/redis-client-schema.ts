/**
 * The Redis client option of the stores that share state between
 * instances (responses, cooldowns): a connected ioredis or node-redis client.
 */
import type { IoRedisLike, NodeRedisLike } from '../redis/script-runner.js';
import { got, isObject, shaped } from './option-schemas.js';

export const redisClientSchema = shaped<IoRedisLike | NodeRedisLike>(
  (value) => isObject(value) && (typeof value.evalsha === 'function' || typeof value.evalSha === 'function'),
  (value) =>
    `must be a connected Redis client: ioredis \`new Redis(url)\` or node-redis \`await createClient({ url }).connect()\` (got ${got(value)})`,
);
