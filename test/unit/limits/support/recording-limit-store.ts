/**
 * A memory limit store that records what it is asked to do, and the
 * limiters a test creates (closed after each test).
 */
import { afterEach } from 'vitest';
import type { LimitsOptions } from '../../../../src/limits/limit-options.js';
import type { LimitAdjustment, LimitCheck, LimitStore } from '../../../../src/limits/limit-store.js';
import { createLimiter, type Limiter } from '../../../../src/limits/limiter.js';
import { memoryLimitStore } from '../../../../src/limits/memory-limit-store.js';

export function recordingStore() {
  const inner = memoryLimitStore();
  const reserved: LimitCheck[][] = [];
  const settled: LimitAdjustment[][] = [];
  const store: LimitStore = {
    reserve: (checks) => {
      reserved.push([...checks]);
      return inner.reserve(checks);
    },
    settle: (adjustments) => {
      settled.push([...adjustments]);
      return inner.settle(adjustments);
    },
    renew: (leases) => inner.renew!(leases),
  };
  return { store, reserved, settled, releases: () => settled.flat().filter((adjustment) => adjustment.kind === 'concurrency').length };
}

const limiters: Limiter[] = [];
afterEach(() => {
  for (const limiter of limiters.splice(0)) limiter.close();
});

/** A limiter closed after the test. */
export function limiterWith(options: LimitsOptions): Limiter {
  const limiter = createLimiter(options);
  limiters.push(limiter);
  return limiter;
}
