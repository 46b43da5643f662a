/**
 * modelgate on node:http with the bench routes (modelgate-options.mjs) and,
 * by `BENCH_CACHE`, a response cache: `none` (no `cache` option),
 * `memory` (`memoryResponseCache()`) or `redis` (`redisResponseCache` on
 * the Redis at `REDIS_URL`, ioredis, a prefix of this process's own).
 *
 * `GET /bench/cpu` answers this process's `process.cpuUsage()` (µs), so the
 * harness reads the server's CPU time around a batch of requests (the
 * reads cost the same in every case).
 */
import { memoryResponseCache, redisResponseCache } from '../../dist/index.js';
import { createGateway, createNodeHandler } from '../../dist/node.js';
import { createCpuReportingServer } from '../lib/server-cpu.mjs';
import { announce } from './announce.mjs';
import { gatewayOptions } from './modelgate-options.mjs';

async function cacheOption(kind) {
  if (kind === 'memory') return { store: memoryResponseCache() };
  if (kind !== 'redis') return undefined;
  const { Redis } = await import('ioredis');
  const client = new Redis(process.env.REDIS_URL);
  return { store: redisResponseCache({ client, prefix: `bench:cache:${process.pid}:` }), close: () => client.quit() };
}

const cache = await cacheOption(process.env.BENCH_CACHE ?? 'none');
const gateway = createGateway({ ...gatewayOptions(), ...(cache ? { cache: { store: cache.store } } : {}) });
const handler = createNodeHandler(gateway);
const server = createCpuReportingServer(handler);
announce(server, Number(process.env.PORT ?? 0), async () => {
  await gateway.close();
  await cache?.close?.();
});
