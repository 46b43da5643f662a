#!/usr/bin/env node
/**
 * Runs every case of the hostile-input catalogue (`bench/lib/hostile-cases.mjs`)
 * against a built package, each in a child process of its own with a time
 * cap (a case that blocks the old code for minutes cannot stall the
 * others), and prints per case: the answer's status and whether it meets
 * the case's expectation, the request's wall time, the longest event-loop
 * block while it was served (in CPU time of the server's thread, and in
 * wall time, which a loaded machine inflates), and the growth of the peak
 * resident memory. "Meets it" also requires the block to stay within
 * `blockBoundMs`, as the suite does. A capped case shows the CPU its
 * process had used when it was stopped.
 * Writes the figures to `bench/results/hostile-catalogue-<label>.json`.
 *
 *   node bench/hostile-catalogue.mjs [--dist dist] [--label name] [--cap-seconds 60] [--only text] [--out file]
 *
 * `--dist` is a built package directory (`npx tsup` builds `dist/`); its
 * imports resolve from the `node_modules` beside it. `--label` defaults to
 * the name of the directory that holds it. `--only` keeps the cases whose
 * name contains the text.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HOSTILE_CASES } from './lib/hostile-cases.mjs';
import { blockBoundMs } from './lib/hostile-run.mjs';
import { cpuMicros } from './lib/proc-stats.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const CHILD = join(BENCH, 'lib', 'hostile-case-child.mjs');

const { values: args } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    label: { type: 'string' },
    'cap-seconds': { type: 'string', default: '60' },
    only: { type: 'string' },
    out: { type: 'string' },
  },
});
const dist = resolve(args.dist);
if (!existsSync(join(dist, 'index.js'))) {
  process.stderr.write(`hostile-catalogue: no built package at ${dist} (run \`npx tsup\` first, or pass --dist)\n`);
  process.exit(2);
}
const label = args.label ?? basename(dirname(dist));
const capMs = Number(args['cap-seconds']) * 1000;
const out = args.out ?? join(BENCH, 'results', `hostile-catalogue-${label}.json`);

/** Runs case `index` in a child; resolves with its report, or with how it ended without one. */
function runCase(index) {
  return new Promise((done) => {
    const started = performance.now();
    const child = fork(CHILD, [dist, String(index)], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let report;
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.on('message', (message) => {
      report = message;
    });
    let cpuAtCapMs;
    const cap = setTimeout(() => {
      cpuAtCapMs = (cpuMicros(child.pid) ?? NaN) / 1000;
      child.kill('SIGKILL');
    }, capMs);
    child.on('exit', (code, signal) => {
      clearTimeout(cap);
      const elapsedMs = performance.now() - started;
      if (report) done({ ...report, outcome: 'answered' });
      else if (signal === 'SIGKILL' && elapsedMs >= capMs) done({ outcome: 'capped', note: `> ${capMs / 1000} s`, cpuAtCapMs });
      else done({ outcome: 'crashed', note: `exit ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` });
    });
  });
}

const ms = (value) => (value === undefined ? '' : value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);
const mb = (bytes) => (bytes === undefined ? '' : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);
const cell = (text) => String(text).replaceAll('|', '\\|');

const selected = HOSTILE_CASES.map((hostileCase, index) => ({ hostileCase, index })).filter(({ hostileCase }) => !args.only || hostileCase.name.includes(args.only));
const results = [];
for (const { hostileCase, index } of selected) {
  process.stderr.write(`[${results.length + 1}/${selected.length}] ${hostileCase.name} ... `);
  const result = await runCase(index);
  process.stderr.write(`${result.outcome === 'answered' ? `${result.status} in ${ms(result.wallMs)}` : result.note}\n`);
  if (result.outcome === 'answered' && result.maxBlockMs > blockBoundMs(hostileCase, result.bodyBytes)) {
    result.problems.push(`event loop blocked ${Math.round(result.maxBlockMs)} ms of CPU, bound ${blockBoundMs(hostileCase, result.bodyBytes)} ms`);
  }
  results.push({ name: hostileCase.name, expected: hostileCase.expect.status, ...result });
}

const lines = [
  `Hostile-input catalogue on \`${dist}\` (${label}), ${new Date().toISOString()}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, cap ${capMs / 1000} s per case`,
  '',
  '| case | status (expected) | meets it | wall time | longest event-loop block (CPU) | (wall) | peak RSS growth |',
  '|---|---|---|---|---|---|---|',
];
for (const result of results) {
  const expected = [result.expected].flat().join('/');
  if (result.outcome !== 'answered') {
    const cpu = result.cpuAtCapMs === undefined || Number.isNaN(result.cpuAtCapMs) ? '' : `> ${ms(result.cpuAtCapMs)} CPU by the cap, start-up included`;
    lines.push(`| ${cell(result.name)} | ${result.outcome} (${expected}) | no: ${cell(result.note)} | ${result.outcome === 'capped' ? result.note : ''} | ${cpu} | | |`);
    continue;
  }
  const meets = result.problems.length === 0 ? 'yes' : `no: ${cell(result.problems.join('; ').slice(0, 200))}`;
  lines.push(`| ${cell(result.name)} | ${result.status} (${expected}) | ${meets} | ${ms(result.wallMs)} | ${ms(result.maxBlockMs)} | ${ms(result.maxBlockWallMs)} | ${mb(result.peakRssGrowthBytes)} |`);
}
process.stdout.write(`${lines.join('\n')}\n`);

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ meta: { dist, label, date: new Date().toISOString(), cores: cpus().length, load: loadavg(), capSeconds: capMs / 1000, node: process.version }, results }, null, 2)}\n`);
process.stderr.write(`written ${out}\n`);
