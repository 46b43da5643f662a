/**
 * Keeps `bench/guards-cost.mjs` from rotting (`npm run bench:smoke`): its
 * smoke mode runs every case, whose answers the script itself checks
 * (status, the stub's whole text, a stream's `[DONE]`), and writes a report
 * with a figure per case and round. Timings are not asserted, except what
 * the stub's pace fixes: an output guard holding back 128 characters
 * cannot show the first token before the stub has sent them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'modelgate-bench-guards-'));
const out = join(dir, 'guards-cost.json');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  case: string;
  mode: 'stream' | 'json';
  versus: string;
  latencyMs: number;
  latencyDiffMs: number;
  cpuUsPerRequest: number;
}
interface Report {
  meta: { rounds: number; interval: number };
  rounds: Record<string, { cpuUsPerRequest: number; latencyMs: number }>[];
  rows: Row[];
  checks: { holdbackMs: number };
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bench/guards-cost.mjs', ...args], { cwd: root, timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const STREAM_CASES = ['no guards option', '(a) guards: []', '(b) input-only guard', '(c) piiRedactor', '(d) denyList + piiRedactor'];
const JSON_CASES = ['whole answer, no guards option', 'whole answer, (c) piiRedactor', 'whole answer, (d) denyList + piiRedactor'];

describe('bench/guards-cost.mjs --smoke', () => {
  it('measures every case in every round, each against its reference', async () => {
    const { code, stdout, stderr } = await run(['--smoke', '--out', out]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('### Guards: first token and server CPU');
    expect(stdout).toContain('Holdback check:');
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(report.rows.map((row) => row.case)).toEqual([...STREAM_CASES, ...JSON_CASES]);
    expect(report.rounds).toHaveLength(report.meta.rounds);
    for (const round of report.rounds) {
      expect(Object.keys(round).sort()).toEqual([...STREAM_CASES, ...JSON_CASES].sort());
      for (const figure of Object.values(round)) {
        expect(figure.cpuUsPerRequest).toBeGreaterThan(0);
        expect(figure.latencyMs).toBeGreaterThan(0);
      }
    }
    for (const row of report.rows) expect(row.versus).toBe(row.mode === 'stream' ? '(a) guards: []' : 'whole answer, no guards option');
    // 128 characters of 6-character deltas: the 22nd delta, 21 intervals after the first.
    const pii = report.rows.find((row) => row.case === '(c) piiRedactor')!;
    expect(pii.latencyDiffMs).toBeGreaterThanOrEqual(21 * report.meta.interval - report.meta.interval / 2);
  }, 180_000);

  it('refuses an unknown option plainly', async () => {
    const { code, stderr } = await run(['--bogus']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('unknown option --bogus');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});
