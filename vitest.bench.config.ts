/**
 * The benchmark smoke test (`npm run bench:smoke`): runs the harness in its
 * smoke profile and checks its report. Kept out of the default `npm test`
 * because it is the suite's slowest part (about a minute on this VM).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    include: ['bench/**/*.test.ts'],
    testTimeout: 200_000,
    hookTimeout: 20_000,
  },
});
