/**
 * Which test files need a real Redis, and whether this run has one. A suite
 * that starts Debian's `redis-server` (test/helpers/redis-server.ts) is named
 * `*.redis.test.ts`: that suffix is the one mark, read by vitest.config.ts
 * (which leaves those files out when there is no Redis) and by the global
 * set-up (which says so at the start and the end of the run).
 *
 * Without `redis-server` on PATH (or `$REDIS_SERVER`) the Redis suites are
 * left out, except under `CI=true`, where a missing Redis fails the run.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';

export const REDIS_SUITE_SUFFIX = '.redis.test.ts';
/** The vitest glob of the Redis suites (for `exclude`). */
export const REDIS_SUITES_GLOB = `**/*${REDIS_SUITE_SUFFIX}`;

const INSTALL =
  'to run them, install redis-server (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) ' +
  'or set REDIS_SERVER to its path';

export type RedisDecision =
  | { kind: 'run'; binary: string }
  | { kind: 'leave-out'; line: string }
  | { kind: 'fail'; message: string };

type Env = Readonly<Record<string, string | undefined>>;

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The path of the `redis-server` the tests would start (`$REDIS_SERVER`, else the one on PATH), or undefined. */
export function findRedisServer(env: Env = process.env): string | undefined {
  const name = env.REDIS_SERVER || 'redis-server';
  if (name.includes('/')) return isExecutableFile(name) ? name : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The Redis suites under `root`/test, as paths relative to `root`, sorted. */
export function redisSuites(root: string): string[] {
  const dir = join(root, 'test');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(REDIS_SUITE_SUFFIX))
    .map((file) => relative(root, join(dir, file)))
    .sort();
}

/** Runs the Redis suites, leaves them out with a line saying so, or (under CI=true) fails the run. */
export function decideRedisSuites(root: string, env: Env = process.env): RedisDecision {
  const binary = findRedisServer(env);
  if (binary) return { kind: 'run', binary };
  const missing = env.REDIS_SERVER ? `REDIS_SERVER=${env.REDIS_SERVER} is not an executable file` : 'redis-server is not on PATH';
  const suites = redisSuites(root).join(', ');
  if (env.CI === 'true') {
    return { kind: 'fail', message: `CI=true and ${missing}: the Redis suites must run in CI (${suites}); ${INSTALL}.` };
  }
  return { kind: 'leave-out', line: `Redis suites not run (${missing}): ${suites}; ${INSTALL}.` };
}
