/**
 * A stream longer than its concurrency lease keeps its slot to its end with
 * the Redis store (the memory store: lease-renewal.test.ts).
 */
import { redisLimitStore } from '../../../src/limits/redis-limit-store.js';
import { useRedisClients } from '../../helpers/redis-clients.js';
import { describeLongStream } from './support/lease-renewal-cases.js';

const redis = useRedisClients();

describeLongStream('redis', () => redisLimitStore({ client: redis.io, prefix: `renewal${Date.now()}:` }));
