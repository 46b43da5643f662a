#!/usr/bin/env node
/**
 * `node bench/guards-cost.mjs` (`npm run bench:guards`): what guards cost a
 * chat call, over HTTP, on the built package's node:http handler
 * (`bench/servers/modelgate-guards.mjs`, one process per guard set) with
 * the stub upstream (`bench/servers/stub-upstream.mjs`).
 *
 * Streamed cases: a chat stream of `--events` deltas (" token", 6
 * characters each), one every `--interval` ms from the stub, through
 *
 *   no guards option       a gateway built without `guards` (the reference)
 *   (a) guards: []         no guard
 *   (b) input-only guard   `denyList`'s input check alone: the output path is skipped
 *   (c) piiRedactor        `piiRedactor()`: an output guard, holdback 128 characters
 *   (d) denyList + piiRedactor
 *
 * Whole-answer cases: the stub's JSON chat answer, without guards and with
 * (c) and (d), requests sent one after the other.
 *
 * Every answer is checked (status 200; a stream's text is the stub's, whole,
 * and ends with `[DONE]`); a failed check stops the run (exit code 1).
 *
 * Figures: first-token latency at the client (request sent → first delta
 * with text), median per batch, then median over rounds, and its
 * difference to (a) in ms and in characters of the stub's pace; the
 * server's CPU per request from its own `process.cpuUsage()` read before
 * and after a batch. Rounds alternate the case order (A..E, E..A, ...).
 * The holdback check: (c)'s first token arrives no later than (a)'s plus
 * the time the upstream takes to send 128 characters
 * (ceil(128 / 6) × interval). With two or more cores and `taskset`, the
 * servers are pinned to core 0 and the stub and this harness to core 1.
 *
 * Options: `--rounds <n>` (5), `--streams <n>` streamed requests per case
 * per round (20, `--concurrency` at a time, default 10), `--requests <n>`
 * whole answers per case per round (300), `--events <n>` (50),
 * `--interval <ms>` (20), `--smoke` (2 rounds, small batches: checks the
 * cases run, not to quote), `--no-pin`, `--out <file>` (JSON: settings,
 * every round's figures, the summary).
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { ensureDist } from './lib/build-dist.mjs';
import { alternatedRounds } from './lib/alternated-rounds.mjs';
import { median } from './lib/in-process.mjs';
import { smallChat } from './lib/payloads.mjs';
import { canPin, pin, startServer } from './lib/processes.mjs';
import { serverCpuMicros } from './lib/server-cpu.mjs';
import { CHAT_STREAM } from './lib/wire-bodies.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(ROOT, 'bench/servers/modelgate-guards.mjs');
const STUB = join(ROOT, 'bench/servers/stub-upstream.mjs');
const HEADERS = { authorization: 'Bearer sk-bench', 'content-type': 'application/json' };
/** `piiRedactor()`'s documented default holdback, in characters. */
const PII_HOLDBACK_CHARS = 128;
/** The text of one stub delta, read from the stub's own bytes. */
const DELTA_TEXT = JSON.parse(CHAT_STREAM.body.toString().slice('data: '.length)).choices[0].delta.content;

function parseArgs(argv) {
  const options = { rounds: 5, streams: 20, concurrency: 10, requests: 300, events: 50, interval: 20, smoke: false, pin: true, out: undefined };
  const numeric = { '--rounds': 'rounds', '--streams': 'streams', '--concurrency': 'concurrency', '--requests': 'requests', '--events': 'events', '--interval': 'interval' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg in numeric) {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      options[numeric[arg]] = Number(next);
    } else if (arg === '--smoke') options.smoke = true;
    else if (arg === '--no-pin') options.pin = false;
    else if (arg === '--out') {
      options.out = argv[++i];
      if (options.out === undefined) throw new Error('--out needs a file');
    } else throw new Error(`unknown option ${arg} (options: ${Object.keys(numeric).join(' <n>, ')} <n>, --smoke, --no-pin, --out <file>)`);
  }
  if (options.smoke) Object.assign(options, { rounds: 2, streams: 4, concurrency: 4, requests: 20, pin: false });
  for (const name of Object.values(numeric)) {
    if (!Number.isInteger(options[name]) || options[name] < 1) throw new Error(`--${name} must be a whole number of at least 1`);
  }
  if (options.events * DELTA_TEXT.length <= PII_HOLDBACK_CHARS) throw new Error(`--events must make an answer longer than the ${PII_HOLDBACK_CHARS}-character holdback (more than ${Math.floor(PII_HOLDBACK_CHARS / DELTA_TEXT.length)})`);
  return options;
}

const SERVERS = ['absent', 'empty', 'input', 'pii', 'deny+pii'];
const STREAM_CASES = [
  { name: 'no guards option', server: 'absent' },
  { name: '(a) guards: []', server: 'empty' },
  { name: '(b) input-only guard', server: 'input' },
  { name: '(c) piiRedactor', server: 'pii' },
  { name: '(d) denyList + piiRedactor', server: 'deny+pii' },
].map((c) => ({ ...c, mode: 'stream' }));
const JSON_CASES = [
  { name: 'whole answer, no guards option', server: 'absent' },
  { name: 'whole answer, (c) piiRedactor', server: 'pii' },
  { name: 'whole answer, (d) denyList + piiRedactor', server: 'deny+pii' },
].map((c) => ({ ...c, mode: 'json' }));
const CASES = [...STREAM_CASES, ...JSON_CASES];

const STREAM_BODY = smallChat('gpt-bench-paced', { stream: true });
const JSON_BODY = smallChat('gpt-bench');

/** One streamed request: ms to the first delta with text; throws unless the whole stub text arrived and `[DONE]` ended it. */
async function sendStream(pool, events) {
  const start = performance.now();
  const response = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers: HEADERS, body: STREAM_BODY });
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}: ${(await response.body.text()).slice(0, 200)}`);
  let firstTokenMs;
  let pending = '';
  let text = '';
  let done = false;
  for await (const chunk of response.body) {
    pending += chunk.toString();
    const parts = pending.split('\n\n');
    pending = parts.pop();
    for (const part of parts) {
      const data = part.split('\n').find((line) => line.startsWith('data: '))?.slice(6);
      if (data === '[DONE]') done = true;
      if (!data?.startsWith('{')) continue;
      const content = JSON.parse(data).choices?.[0]?.delta?.content;
      if (typeof content === 'string' && content !== '') {
        firstTokenMs ??= performance.now() - start;
        text += content;
      }
    }
  }
  if (!done) throw new Error('a stream that did not end with [DONE]');
  if (text !== DELTA_TEXT.repeat(events)) throw new Error(`a stream whose text is not the stub's (${text.length} characters, expected ${DELTA_TEXT.length * events})`);
  return firstTokenMs;
}

async function sendJson(pool) {
  const start = performance.now();
  const response = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers: HEADERS, body: JSON_BODY });
  const text = await response.body.text();
  if (response.statusCode !== 200 || !text.startsWith('{')) throw new Error(`status ${response.statusCode}: ${text.slice(0, 200)}`);
  return performance.now() - start;
}

/** One batch of a case: the server's CPU µs per request and the median latency (first token for streams). */
async function measure(server, testCase, options) {
  const before = await serverCpuMicros(server.pool);
  const latencies = [];
  if (testCase.mode === 'stream') {
    for (let sent = 0; sent < options.streams; sent += options.concurrency) {
      const n = Math.min(options.concurrency, options.streams - sent);
      latencies.push(...(await Promise.all(Array.from({ length: n }, () => sendStream(server.pool, options.events)))));
    }
  } else {
    for (let i = 0; i < options.requests; i++) latencies.push(await sendJson(server.pool));
  }
  const after = await serverCpuMicros(server.pool);
  const count = testCase.mode === 'stream' ? options.streams : options.requests;
  return { cpuUsPerRequest: (after - before) / count, latencyMs: median(latencies) };
}

function summarise(rounds, options) {
  const msPerChar = options.interval / DELTA_TEXT.length;
  const rows = CASES.map((testCase) => {
    const own = rounds.map((round) => round[testCase.name]);
    const base = testCase.mode === 'stream' ? '(a) guards: []' : 'whole answer, no guards option';
    const diffs = rounds.map((round) => round[testCase.name].latencyMs - round[base].latencyMs);
    const cpuRatios = rounds.map((round) => round[testCase.name].cpuUsPerRequest / round[base].cpuUsPerRequest);
    return {
      case: testCase.name,
      mode: testCase.mode,
      versus: base,
      latencyMs: median(own.map((figure) => figure.latencyMs)),
      latencyDiffMs: median(diffs),
      latencyDiffChars: testCase.mode === 'stream' ? median(diffs) / msPerChar : undefined,
      cpuUsPerRequest: median(own.map((figure) => figure.cpuUsPerRequest)),
      cpuRatio: median(cpuRatios),
      cpuRange: [Math.min(...cpuRatios), Math.max(...cpuRatios)],
    };
  });
  const holdbackMs = Math.ceil(PII_HOLDBACK_CHARS / DELTA_TEXT.length) * options.interval;
  const pii = rows.find((row) => row.case === '(c) piiRedactor');
  const absent = rows.find((row) => row.case === 'no guards option');
  return {
    rows,
    checks: {
      holdbackMs,
      piiWithinHoldback: pii.latencyDiffMs <= holdbackMs,
      emptyVersusAbsentMs: -absent.latencyDiffMs,
      emptyVersusAbsentCpuRatio: 1 / absent.cpuRatio,
    },
  };
}

const fmt = (value, digits) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
const signed = (value, digits) => (value === undefined ? '–' : `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`);

function printReport({ rows, checks }, options, header) {
  const lines = [
    header,
    '',
    '| case | first token p50 ms | vs (a) ms | vs (a) chars | server CPU µs/request | × (a) (median) | range over rounds |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.filter((row) => row.mode === 'stream').map((row) => `| ${row.case} | ${fmt(row.latencyMs, 1)} | ${signed(row.latencyDiffMs, 1)} | ${signed(row.latencyDiffChars, 0)} | ${fmt(row.cpuUsPerRequest, 0)} | **${fmt(row.cpuRatio, 2)}×** | ${fmt(row.cpuRange[0], 2)}–${fmt(row.cpuRange[1], 2)} |`),
    '',
    '| whole answer | latency p50 ms | vs no guards ms | server CPU µs/request | × no guards (median) | range over rounds |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.filter((row) => row.mode === 'json').map((row) => `| ${row.case.replace('whole answer, ', '')} | ${fmt(row.latencyMs, 2)} | ${signed(row.latencyDiffMs, 2)} | ${fmt(row.cpuUsPerRequest, 0)} | **${fmt(row.cpuRatio, 2)}×** | ${fmt(row.cpuRange[0], 2)}–${fmt(row.cpuRange[1], 2)} |`),
    '',
    `Holdback check: (c)'s first token ${signed(rows.find((row) => row.case === '(c) piiRedactor').latencyDiffMs, 1)} ms after (a)'s; the upstream sends ${PII_HOLDBACK_CHARS} characters in ${checks.holdbackMs} ms (${Math.ceil(PII_HOLDBACK_CHARS / DELTA_TEXT.length)} deltas of ${DELTA_TEXT.length} every ${options.interval} ms): ${checks.piiWithinHoldback ? 'within the holdback' : 'PAST the holdback'}.`,
    `No-cost check: (a) guards: [] against a gateway without the option: first token ${signed(checks.emptyVersusAbsentMs, 1)} ms, server CPU ${fmt(checks.emptyVersusAbsentCpuRatio, 2)}×.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const log = (message) => process.stderr.write(`${message}\n`);
  log(await ensureDist(ROOT, { log }));
  const pinning = options.pin && canPin();
  pin(process.pid, 1, pinning);
  const stub = await startServer({ args: [STUB], env: { PORT: '0' }, core: 1, pinning });
  const env = { PORT: '0', STUB: `http://127.0.0.1:${stub.port}`, PACED_EVENTS: String(options.events), PACED_MS: String(options.interval) };
  const servers = {};
  const load = [loadavg()[0]];
  const rounds = [];
  try {
    for (const kind of SERVERS) {
      const started = await startServer({ args: [SERVER], env: { ...env, BENCH_GUARDS: kind }, core: 0, pinning });
      servers[kind] = { ...started, pool: new Pool(`http://127.0.0.1:${started.port}`, { connections: options.concurrency, pipelining: 1 }) };
    }
    // Warm-up: one batch of every case, not counted.
    for (const testCase of CASES) await measure(servers[testCase.server], testCase, options);
    rounds.push(...await alternatedRounds(CASES, options.rounds, (testCase) => measure(servers[testCase.server], testCase, options), log));
  } finally {
    load.push(loadavg()[0]);
    await Promise.all(Object.values(servers).map(async (server) => {
      await server.pool.close();
      await server.stop();
    }));
    await stub.stop();
  }
  const summary = summarise(rounds, options);
  const header = `### Guards: first token and server CPU (${options.rounds} rounds; streams of ${options.events} deltas every ${options.interval} ms, ${options.streams} per case per round, ${options.concurrency} at a time; ${options.requests} whole answers per case per round; load average ${load[0].toFixed(1)} → ${load[1].toFixed(1)}, ${cpus().length} cores, pinning ${pinning ? 'on' : 'off'})`;
  printReport(summary, options, header);
  if (options.out) {
    const meta = { date: new Date().toISOString(), node: process.version, cores: cpus().length, pinning, loadAverage: load, ...options };
    writeFileSync(options.out, `${JSON.stringify({ meta, rounds, ...summary }, null, 2)}\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`bench/guards-cost.mjs: ${error.message}\n`);
  process.exit(1);
});
