import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { decideRedisSuites, REDIS_SUITES_GLOB } from './test/setup/redis-suites.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
// Without redis-server the Redis suites (*.redis.test.ts) are left out and the run says so; under CI=true it fails instead.
const redis = decideRedisSuites(here('.'));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^modelgate$/, replacement: here('./src/index.ts') },
      { find: /^modelgate\/express$/, replacement: here('./adapters/express.ts') },
      { find: /^modelgate\/koa$/, replacement: here('./adapters/koa.ts') },
      { find: /^modelgate\/fastify$/, replacement: here('./adapters/fastify.ts') },
      { find: /^modelgate\/fetch$/, replacement: here('./adapters/fetch.ts') },
      { find: /^modelgate\/node$/, replacement: here('./adapters/node-http.ts') },
      { find: /^modelgate\/testing$/, replacement: here('./src/simulator/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(redis.kind === 'leave-out' ? [REDIS_SUITES_GLOB] : [])],
    globalSetup: ['test/setup/redis-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Most suites wait on sockets and timers, not the CPU: one worker more than there are cores
    // keeps the cores busy (on 2 cores: 2 min 7 s instead of 3 min for the vitest part).
    maxWorkers: availableParallelism() + 1,
  },
});
