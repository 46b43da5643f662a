/**
 * The options of `redisHealthStore`, apart from the store so that the
 * store and the schema that checks its options both depend on them.
 */
import type { IoRedisLike, NodeRedisLike } from '../redis/script-runner.js';

/** Options of {@link redisHealthStore}. */
export interface RedisHealthStoreOptions {
  /** A connected ioredis (`new Redis(url)`) or node-redis (`await createClient({ url }).connect()`) client; a Cluster client works too. */
  client: IoRedisLike | NodeRedisLike;
  /** Prefix of the store's one key (`{prefix}cooldowns`). Default `'modelgate:health:'`. */
  prefix?: string;
  /** Ms between two reads of the shared cooldowns: how late an instance may see another's. Default 1000. */
  refreshMs?: number;
  /** Told of every failed Redis call (the instances then go on with their own state). Default: ignored. */
  onError?: (error: unknown) => void;
}
