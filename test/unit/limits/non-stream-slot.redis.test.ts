/**
 * A non-streamed call's concurrency slot with the Redis store (the memory
 * store and what is tested: non-stream-slot.test.ts).
 */
import { redisLimitStore } from '../../../src/limits/redis-limit-store.js';
import { useRedisClients } from '../../helpers/redis-clients.js';
import { describeNonStreamSlot } from './support/non-stream-slot-cases.js';

const redis = useRedisClients();

describeNonStreamSlot('redis', () => redisLimitStore({ client: redis.io, prefix: `nonstream${Date.now()}${Math.random()}:` }));
