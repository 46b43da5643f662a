import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

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
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Most suites wait on sockets and timers, not the CPU: one worker more than there are cores
    // keeps the cores busy (on 2 cores: 2 min 7 s instead of 3 min for the vitest part).
    maxWorkers: availableParallelism() + 1,
  },
});
