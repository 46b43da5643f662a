/**
 * `redisResponseStore` refuses options it cannot work with at construction,
 * before any command reaches Redis.
 */
import { isGatewayConfigError, redisResponseStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../helpers/thrown-by.js';

const client = { evalsha: async () => null, eval: async () => null };

describe('redisResponseStore options', () => {
  it.each([
    [{}, 'client'],
    [{ client: undefined }, 'client'],
    [{ client: { get: () => null } }, 'client'],
    [{ client, ttlMs: 0 }, 'ttlMs'],
    [{ client, ttlMs: 1.5 }, 'ttlMs'],
    [{ client, prefix: '{mg}:' }, 'prefix'],
    [{ client, prefx: 'mg:' }, 'prefix'],
    [{ client, maxResponsesPerOwner: 0 }, 'maxResponsesPerOwner'],
    [{ client, maxResponsesPerOwner: 2.5 }, 'maxResponsesPerOwner'],
    [{ client, maxBytesPerOwner: -1 }, 'maxBytesPerOwner'],
    [{ client, maxBytesPerOwner: '64MB' }, 'maxBytesPerOwner'],
    [{ client, maxBytesPerUser: 1000 }, 'maxBytesPerOwner'],
  ])('refuses %j naming %s', (options, name) => {
    const error = thrownBy(() => redisResponseStore(options as never));
    expect(isGatewayConfigError(error)).toBe(true);
    expect(error.message).toContain('redisResponseStore');
    expect(error.message).toContain(name);
  });

  it('takes an ioredis-shaped or a node-redis-shaped client', () => {
    expect(() => redisResponseStore({ client })).not.toThrow();
    expect(() => redisResponseStore({ client, maxResponsesPerOwner: 100, maxBytesPerOwner: 1_000_000 })).not.toThrow();
    expect(() => redisResponseStore({ client: { evalSha: async () => null, eval: async () => null } })).not.toThrow();
  });
});
