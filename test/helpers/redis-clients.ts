/**
 * A real Redis for one test file with a client of each supported kind
 * (ioredis, node-redis): started before the file's tests, stopped after.
 * Read the fields inside tests (they are set by the `beforeAll` hook).
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { type RedisServer, startRedis } from './redis-server.js';

export interface RedisClients {
  readonly url: string;
  readonly io: Redis;
  readonly node: ReturnType<typeof createClient>;
}

export function useRedisClients(): RedisClients {
  let server: RedisServer | undefined;
  let io: Redis | undefined;
  let node: ReturnType<typeof createClient> | undefined;
  beforeAll(async () => {
    server = await startRedis();
    io = new Redis(server.url);
    node = createClient({ url: server.url });
    await node.connect();
  });
  afterAll(async () => {
    io?.disconnect();
    await node?.close();
    await server?.stop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useRedisClients: read its fields inside tests, after beforeAll');
    return value;
  };
  return {
    get url() {
      return ready(server).url;
    },
    get io() {
      return ready(io);
    },
    get node() {
      return ready(node);
    },
  };
}
