/**
 * Says at the start and at the end of the run that the Redis suites were
 * left out (vitest.config.ts leaves them out on the same decision), and
 * fails the run when CI=true has no redis-server.
 */
import type { TestProject } from 'vitest/node';
import { decideRedisSuites } from './redis-suites.js';

// Every vitest project runs the global set-up; the run says its line once.
const ANNOUNCED = Symbol.for('modelgate.test.redis-announced');

export default function setup(project: TestProject): (() => void) | undefined {
  const run = globalThis as { [ANNOUNCED]?: boolean };
  if (run[ANNOUNCED]) return undefined;
  run[ANNOUNCED] = true;
  const decision = decideRedisSuites(project.vitest.config.root);
  if (decision.kind === 'fail') {
    // Before any test runs, and the message says all there is to fix: no stack, no summary of an empty run.
    console.error(decision.message);
    process.exit(1);
  }
  if (decision.kind === 'run') return undefined;
  console.log(decision.line);
  return () => console.log(decision.line);
}
