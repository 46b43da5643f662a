/**
 * A batch of the Redis store (redis-batch.ts) whose script call fails: every
 * operation that rode in it fails with the client's error. No server needed:
 * the client always fails (the batching itself: redis-batching.redis.test.ts).
 */
import { type IoRedisLike, redisLimitStore } from 'modelgate';
import { describe, expect, it } from 'vitest';

const DAY = 86_400_000;

describe('a failed batch', () => {
  it('rejects the settles that rode with a reserve that failed', async () => {
    const failing: IoRedisLike = { evalsha: () => Promise.reject(new Error('connection lost')), eval: () => Promise.reject(new Error('connection lost')) };
    const store = redisLimitStore({ client: failing });
    const settled = store.settle([{ kind: 'concurrency', key: '{p}:cc', leaseId: 'a' }]);
    await expect(store.reserve([{ kind: 'concurrency', key: '{p}:cc', limit: 1, leaseMs: DAY, leaseId: 'b' }])).rejects.toThrow('connection lost');
    await expect(settled).rejects.toThrow('connection lost');
  });
});
