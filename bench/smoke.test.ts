/**
 * Keeps the benchmark harness from rotting (`npm run bench:smoke`; not part
 * of `npm test`, being its slowest part): runs `bench/run.mjs --smoke`
 * (a few seconds, three targets, no Portkey, no pinning) and checks the
 * report it writes is complete and every request succeeded. Asserts no
 * timings: figures on a shared test machine mean nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'modelgate-bench-'));
const out = join(dir, 'smoke.json');

interface SmokeRow {
  target: string;
  scenario: string;
  error?: string;
  ok?: number;
  failed?: number;
  cpuUsPerReq?: number;
  allComplete?: boolean;
}

function runSmoke(): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['bench/run.mjs', '--smoke', '--no-pin', '--out', out], { cwd: root, timeout: 170_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`bench --smoke failed: ${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench --smoke', () => {
  it('measures every smoke case and writes the report', async () => {
    const { stdout } = await runSmoke();
    const report = JSON.parse(readFileSync(out, 'utf8')) as { meta: { profile: string }; rows: SmokeRow[]; targets: unknown[] };

    expect(report.meta.profile).toBe('smoke');
    expect(stdout).toContain('### chat, non-streamed');
    expect(stdout).toContain('### Targets');
    const cases = report.rows.map((row) => `${row.target}/${row.scenario}`).sort();
    expect(cases).toEqual([
      'bare-node/chat', 'bare-node/slow-readers', 'bare-node/slow-streams', 'bare-node/stream-50',
      'direct/chat', 'direct/slow-streams', 'direct/stream-50',
      'modelgate-node/chat', 'modelgate-node/chat-translated', 'modelgate-node/slow-readers', 'modelgate-node/slow-streams',
      'modelgate-node/stream-50', 'modelgate-node/stream-50-translated',
    ]);
    for (const row of report.rows) {
      expect(row.error, `${row.target}/${row.scenario}`).toBeUndefined();
      expect(row.ok, `${row.target}/${row.scenario}`).toBeGreaterThan(0);
      expect(row.failed, `${row.target}/${row.scenario}`).toBe(0);
    }
    const slow = report.rows.filter((row) => row.scenario === 'slow-streams');
    expect(slow.every((row) => row.allComplete === true)).toBe(true);
    const chat = report.rows.find((row) => row.target === 'modelgate-node' && row.scenario === 'chat');
    expect(chat?.cpuUsPerReq).toBeGreaterThan(0);
    expect(report.targets.length).toBeGreaterThan(0);
  }, 180_000);
});
