/**
 * The Redis suites' set-up: which files need Redis (the `.redis.test.ts`
 * mark agrees with the files that start one), the decision from PATH,
 * `$REDIS_SERVER` and CI, and a real vitest run of two small files with
 * redis-server hidden from PATH: the memory file passes, the Redis file is
 * named as not run at the start and at the end; with CI=true the run fails.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decideRedisSuites, findRedisServer, REDIS_SUITE_SUFFIX, redisSuites } from './redis-suites.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const empty = mkdtempSync(join(tmpdir(), 'modelgate-no-redis-'));
const withFake = mkdtempSync(join(tmpdir(), 'modelgate-fake-redis-'));
writeFileSync(join(withFake, 'redis-server'), '#!/bin/sh\n');
chmodSync(join(withFake, 'redis-server'), 0o755);
afterAll(() => {
  rmSync(empty, { recursive: true, force: true });
  rmSync(withFake, { recursive: true, force: true });
});

describe('which suites need Redis', () => {
  it('are exactly the test files that start a Redis server', () => {
    const testDir = join(ROOT, 'test');
    const starting = readdirSync(testDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .filter((file) => /helpers\/redis-(server|clients)\.js'/.test(readFileSync(join(testDir, file), 'utf8')))
      .map((file) => join('test', file))
      .sort();
    expect(starting.length).toBeGreaterThan(0);
    expect(redisSuites(ROOT)).toEqual(starting);
    expect(starting.every((file) => file.endsWith(REDIS_SUITE_SUFFIX))).toBe(true);
  });
});

describe('the decision', () => {
  it('runs them with redis-server on PATH or at $REDIS_SERVER', () => {
    const fake = join(withFake, 'redis-server');
    expect(findRedisServer({ PATH: `${empty}:${withFake}` })).toBe(fake);
    expect(decideRedisSuites(ROOT, { PATH: withFake, CI: 'true' })).toEqual({ kind: 'run', binary: fake });
    expect(decideRedisSuites(ROOT, { PATH: empty, REDIS_SERVER: fake })).toEqual({ kind: 'run', binary: fake });
  });

  it('leaves them out without one, in one line that names them and how to get redis-server', () => {
    const decision = decideRedisSuites(ROOT, { PATH: empty });
    expect(decision.kind).toBe('leave-out');
    const line = decision.kind === 'leave-out' ? decision.line : '';
    expect(line).not.toContain('\n');
    expect(line).toContain('redis-server is not on PATH');
    for (const file of redisSuites(ROOT)) expect(line).toContain(file);
    expect(line).toContain('sudo apt-get install redis-server');
    expect(line).toContain('brew install redis');
    expect(decideRedisSuites(ROOT, { PATH: withFake, REDIS_SERVER: join(empty, 'nothing') })).toMatchObject({
      kind: 'leave-out',
      line: expect.stringContaining(`REDIS_SERVER=${join(empty, 'nothing')} is not an executable file`),
    });
  });

  it('fails the run under CI=true without one', () => {
    expect(decideRedisSuites(ROOT, { PATH: empty, CI: 'true' })).toMatchObject({
      kind: 'fail',
      message: expect.stringMatching(/^CI=true and redis-server is not on PATH: the Redis suites must run in CI \(.*test\/integration\/examples-limits\.redis\.test\.ts/),
    });
  });
});

/** Runs vitest on the two example-limits files with nothing on PATH (node is started by its path). */
function runVitest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|REDIS_SERVER$|CI$|PATH$|NODE_OPTIONS$|FORCE_COLOR$)/.test(name)),
  );
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', 'test/integration/examples-limits', '--no-color', '--maxWorkers=1'], {
    cwd: ROOT,
    env: { ...inherited, PATH: empty, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

// Each run starts vitest afresh (about 5 s alone, several times that on a loaded machine).
const RUN_TIMEOUT_MS = 120_000;

describe('a run without redis-server', () => {
  // vitest prints the project's name before the file: `✓ |shared| test/...`.
  const MEMORY_SUITE_PASSED = /^✓ (\|\w+\| )?test\/integration\/examples-limits\.test\.ts/;
  const decision = decideRedisSuites(ROOT, { PATH: empty });
  const line = decision.kind === 'leave-out' ? decision.line : 'no line';

  it('runs the memory suite, and says at the start and at the end that the Redis suites were not run', async () => {
    const { code, output } = await runVitest({});
    expect(code, output).toBe(0);
    const lines = output.split('\n').map((text) => text.trim());
    const said = lines.flatMap((text, index) => (text === line ? [index] : []));
    expect(said, output).toHaveLength(2);
    const ran = lines.findIndex((text) => MEMORY_SUITE_PASSED.test(text));
    const summary = lines.findIndex((text) => text.startsWith('Test Files'));
    expect(ran, output).toBeGreaterThan(-1);
    expect(said[0]).toBeLessThan(ran);
    expect(said[1]).toBeGreaterThan(summary);
    expect(lines[summary], output).toMatch(/^Test Files\s+1 passed \(1\)$/);
  }, RUN_TIMEOUT_MS);

  it('fails under CI=true, saying why', async () => {
    const { code, output } = await runVitest({ CI: 'true' });
    expect(code, output).not.toBe(0);
    expect(output).toContain('CI=true and redis-server is not on PATH: the Redis suites must run in CI');
    expect(output.split('\n').some((text) => MEMORY_SUITE_PASSED.test(text.trim()))).toBe(false);
  }, RUN_TIMEOUT_MS);
});
