/**
 * Concurrency leases on a real Redis, over real HTTP, through both client
 * kinds and across two gateway instances sharing the store: a stream or call
 * longer than `concurrencyLeaseSeconds` keeps its slot while it lives (its
 * lease renewed in Redis), and frees it exactly once when it ends (the
 * in-memory store: limits-leases.test.ts).
 */
import { redisLimitStore } from 'modelgate';
import { describeLeases } from '../helpers/lease-cases.js';
import { useRedisClients } from '../helpers/redis-clients.js';

const redis = useRedisClients();
const prefix = (name: string) => `leases:${name}:${Date.now()}:`;

describeLeases('Redis through ioredis', [() => redisLimitStore({ client: redis.io, prefix: prefix('io') })]);
describeLeases('Redis through node-redis', [() => redisLimitStore({ client: redis.node, prefix: prefix('node') })]);
// One prefix for both: the instances share the counters, each through its own client kind.
const shared = prefix('shared');
describeLeases('two instances sharing Redis (ioredis and node-redis)', [
  () => redisLimitStore({ client: redis.io, prefix: shared }),
  () => redisLimitStore({ client: redis.node, prefix: shared }),
]);
