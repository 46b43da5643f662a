/**
 * `memoryResponseCache` and `redisResponseCache` refuse options they cannot
 * work with at construction, with a message that says what to give: a TTL
 * in milliseconds, a memory bound too small to hold an answer, a client
 * that is not a Redis client, a prefix that would break the hash tag.
 */
import { isGatewayConfigError, memoryResponseCache, redisResponseCache } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../helpers/thrown-by.js';

const client = { evalsha: async () => null, eval: async () => null };

describe('memoryResponseCache options', () => {
  it.each([
    [{ maxBytes: 1000 }, ['maxBytes', '65536', 'maxBytes / 8']],
    [{ maxBytes: 64 * 1024 - 1 }, ['maxBytes', '65536']],
    [{ maxBytes: '64MB' }, ['maxBytes']],
    [{ ttlSeconds: 60_000 }, ['ttlSeconds', 'looks like milliseconds', 'give 60']],
    [{ ttlSeconds: 3_600_000 }, ['ttlSeconds', 'looks like milliseconds', 'give 3600']],
    [{ ttlSeconds: 86_400_000 }, ['ttlSeconds', 'looks like milliseconds', 'give 86400']],
    [{ ttlSeconds: 2_592_001 }, ['ttlSeconds', 'at most 2592000', '30 days']],
    [{ ttlSeconds: 0 }, ['ttlSeconds', 'whole number of seconds']],
    [{ ttlSeconds: 1.5 }, ['ttlSeconds', 'whole number of seconds']],
    [{ ttlSeconds: '60' }, ['ttlSeconds', 'whole number of seconds']],
    [{ now: 5 }, ['now', 'clock']],
    [{ ttl: 60 }, ['ttlSeconds']],
  ])('refuses %j, naming what to fix', (options, words) => {
    const error = thrownBy(() => memoryResponseCache(options as never));
    expect(isGatewayConfigError(error)).toBe(true);
    expect(error.message).toContain('memoryResponseCache');
    for (const word of words) expect(error.message).toContain(word);
  });

  it('takes no options, or sensible ones', () => {
    expect(() => memoryResponseCache()).not.toThrow();
    expect(() => memoryResponseCache({ maxBytes: 64 * 1024, ttlSeconds: 1 })).not.toThrow();
    // Seconds as people write them: an hour, a day, a week, 30 days; 59,999 is no whole minute in ms.
    for (const ttlSeconds of [3600, 86_400, 604_800, 2_592_000, 59_999]) expect(() => memoryResponseCache({ ttlSeconds })).not.toThrow();
  });
});

describe('redisResponseCache options', () => {
  it.each([
    [{}, ['client', 'must be a connected Redis client', 'got undefined']],
    [{ client: { get: () => null } }, ['client', 'must be a connected Redis client']],
    [{ client: 'redis://localhost:6379' }, ['client', 'must be a connected Redis client']],
    [{ client, ttlSeconds: 300_000 }, ['ttlSeconds', 'looks like milliseconds', 'give 300']],
    [{ client, ttlSeconds: -1 }, ['ttlSeconds']],
    [{ client, prefix: '{mg}:' }, ['prefix', 'without { or }']],
    [{ client, prefix: 5 }, ['prefix']],
    [{ client, prefx: 'mg:' }, ['prefix']],
    [{ client, maxBytes: 1000 }, ['maxBytes', 'maxBytesPerOwner', 'maxmemory']],
    [{ client, maxBytesPerOwner: 1000 }, ['maxBytesPerOwner', '65536', '0 or Infinity']],
    [{ client, maxBytesPerOwner: -1 }, ['maxBytesPerOwner']],
    [{ client, maxBytesPerOwner: 64 * 1024 + 0.5 }, ['maxBytesPerOwner', 'whole number']],
    [{ client, maxBytesPerOwner: '64MB' }, ['maxBytesPerOwner']],
    [{ client, maxBytesPerOwner: Number.NaN }, ['maxBytesPerOwner', 'NaN']],
  ])('refuses %j, naming what to fix', (options, words) => {
    const error = thrownBy(() => redisResponseCache(options as never));
    expect(isGatewayConfigError(error)).toBe(true);
    expect(error.message).toContain('redisResponseCache');
    for (const word of words) expect(error.message).toContain(word);
  });

  it('takes an ioredis-shaped or a node-redis-shaped client', () => {
    expect(() => redisResponseCache({ client })).not.toThrow();
    expect(() => redisResponseCache({ client, ttlSeconds: 3600, prefix: 'app:cache:' })).not.toThrow();
    for (const maxBytesPerOwner of [0, Infinity, 64 * 1024, 1024 * 1024 * 1024]) expect(() => redisResponseCache({ client, maxBytesPerOwner })).not.toThrow();
    expect(() => redisResponseCache({ client: { evalSha: async () => null, eval: async () => null } })).not.toThrow();
  });
});
