/**
 * Keeps `bench/cache-hit.mjs` from rotting (`npm run bench:smoke`): its
 * smoke mode runs every case, whose answers the script itself checks
 * (status, `x-modelgate-cache`, a stream's `[DONE]`), and writes a report
 * with a figure per case and round. Asserts no timings. The Redis cases run
 * when `redis-server` is there, as the script decides.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'modelgate-bench-cache-'));
const out = join(dir, 'cache-hit.json');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Report {
  meta: { rounds: number; requests: number; redis: { ok?: true; skipped?: string } };
  rounds: Record<string, { cpuUsPerRequest: number; latencyMs: number }>[];
  rows: { case: string; cpuRatio: number; versus: string }[];
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bench/cache-hit.mjs', ...args], { cwd: root, timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('bench/cache-hit.mjs --smoke', () => {
  it('measures every case in every round, each against its passthrough', async () => {
    const { code, stdout, stderr } = await run(['--smoke', '--out', out]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('### Response cache: a hit against a passthrough call');
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    const cases = ['passthrough json', 'passthrough json, unique requests', 'passthrough stream', 'memory miss+fill', 'memory hit json', 'memory hit stream'];
    if (report.meta.redis.ok) cases.push('redis hit json', 'redis hit stream');
    else expect(stdout).toContain('Redis cases skipped');
    expect(report.rows.map((row) => row.case)).toEqual(cases);
    expect(report.rounds).toHaveLength(report.meta.rounds);
    for (const round of report.rounds) {
      expect(Object.keys(round).sort()).toEqual([...cases].sort());
      for (const figure of Object.values(round)) {
        expect(figure.cpuUsPerRequest).toBeGreaterThan(0);
        expect(figure.latencyMs).toBeGreaterThan(0);
      }
    }
    for (const row of report.rows) {
      const versus = row.case === 'memory miss+fill' ? 'passthrough json, unique requests' : row.case.endsWith('stream') ? 'passthrough stream' : 'passthrough json';
      expect(row.versus).toBe(versus);
      expect(Number.isFinite(row.cpuRatio), row.case).toBe(true);
    }
  }, 180_000);

  it('refuses an unknown option plainly', async () => {
    const { code, stderr } = await run(['--bogus']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('unknown option --bogus');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});
