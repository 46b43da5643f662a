import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { isolatedSuites } from './test/setup/isolated-suites.js';
import { decideRedisSuites, REDIS_SUITES_GLOB } from './test/setup/redis-suites.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
// Without redis-server the Redis suites (*.redis.test.ts) are left out and the run says so; under CI=true it fails instead.
const redis = decideRedisSuites(here('.'));
// Suites share their worker's modules unless they mock one (test/setup/isolated-suites.ts).
const isolated = isolatedSuites(here('.'));

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
    globalSetup: ['test/setup/redis-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Most suites wait on sockets and timers, not the CPU: one worker more than there are cores keeps the cores busy.
    maxWorkers: availableParallelism() + 1,
    pool: 'threads',
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(redis.kind === 'leave-out' ? [REDIS_SUITES_GLOB] : []), ...isolated],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
    ],
  },
});
