/**
 * Keeps the benchmark harness from rotting (`npm run bench:smoke`; not part
 * of `npm test`, being its slowest part): runs `bench/run.mjs --smoke`
 * (a few seconds, two targets, no Portkey, no pinning) and checks the
 * report it writes is complete and every request succeeded. Asserts no
 * timings: figures on a shared test machine mean nothing. Also checks the
 * command line answers `--help` and refuses unknown options plainly.
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

interface CaseRound {
  error?: string;
  ok?: number;
  failed?: number;
  cpuUsPerReq?: number;
  allComplete?: boolean;
}

interface TableRow {
  label: string;
  error?: string;
  ratio?: number | null;
  rounds?: number;
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
  it('measures every smoke case in alternated rounds and writes the report', async () => {
    const { stdout } = await runSmoke();
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      meta: { profile: string; rounds: number };
      cases: Record<string, CaseRound[]>;
      tables: { smoke: TableRow[] };
    };

    expect(report.meta.profile).toBe('smoke');
    expect(stdout).toContain('### Smoke run');
    expect(Object.keys(report.cases).sort()).toEqual([
      'bare-node:chat', 'bare-node:slow-readers', 'bare-node:slow-streams', 'bare-node:stream-50',
      'modelgate-node:bedrock-stream-50', 'modelgate-node:chat', 'modelgate-node:chat-translated', 'modelgate-node:embeddings-16', 'modelgate-node:gemini-embeddings-16-base64', 'modelgate-node:gemini-stream-50', 'modelgate-node:messages-stream-50', 'modelgate-node:responses', 'modelgate-node:responses-stream-5000-translated',
      'modelgate-node:slow-readers', 'modelgate-node:slow-streams', 'modelgate-node:stream-50', 'modelgate-node:stream-50-translated',
    ]);
    for (const [name, rounds] of Object.entries(report.cases)) {
      expect(rounds, name).toHaveLength(report.meta.rounds);
      for (const round of rounds) {
        expect(round.error, name).toBeUndefined();
        expect(round.ok, name).toBeGreaterThan(0);
        expect(round.failed, name).toBe(0);
      }
    }
    const slow = [...(report.cases['bare-node:slow-streams'] ?? []), ...(report.cases['modelgate-node:slow-streams'] ?? [])];
    expect(slow.every((round) => round.allComplete === true)).toBe(true);
    expect(report.cases['modelgate-node:chat']?.[0]?.cpuUsPerReq).toBeGreaterThan(0);
    for (const row of report.tables.smoke) {
      expect(row.error, row.label).toBeUndefined();
      expect(typeof row.ratio === 'number' && Number.isFinite(row.ratio), row.label).toBe(true);
      expect(row.rounds, row.label).toBe(report.meta.rounds);
    }
  }, 180_000);
});

function runBench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bench/run.mjs', ...args], { cwd: root, timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('bench command line', () => {
  it('prints the options for --help and exits 0', async () => {
    const { code, stdout } = await runBench(['--help']);
    expect(code).toBe(0);
    for (const option of ['--full', '--smoke', '--table', '--only', '--rounds', '--out', '--no-peers', '--no-pin', '--cpu-prof']) expect(stdout).toContain(option);
  });

  it.each([[['--bogus'], '--bogus'], [['--table', 'nope'], 'nope'], [['--only', 'nope'], 'nope'], [['--table', 'portkey', '--only', 'responses'], '--only'], [['--rounds', '0'], '--rounds']])('refuses %j with a message, no stack trace', async (args, named) => {
    const { code, stderr } = await runBench(args);
    expect(code).not.toBe(0);
    expect(stderr).toContain(named);
    expect(stderr).toContain('--help');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
