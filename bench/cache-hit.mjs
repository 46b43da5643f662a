#!/usr/bin/env node
/**
 * `node bench/cache-hit.mjs` (`npm run bench:cache`): what a response-cache
 * hit costs the server against a passthrough call, over HTTP, on the built
 * package's node:http handler (`bench/servers/modelgate-cache.mjs`) with
 * the bench routes to the stub upstream (`bench/servers/stub-upstream.mjs`).
 *
 * Cases (a ~1 KB chat request, `bench/lib/payloads.mjs`):
 *
 *   passthrough json     no `cache` option; the stub's ~450-byte JSON answer, relayed
 *   passthrough json, unique requests   the same with a counter in the last message
 *                        (the reference of the miss case, which needs unique requests)
 *   passthrough stream   no `cache` option; the stub's chat stream of 50 events, relayed
 *   memory miss+fill     `memoryResponseCache()`; every request unique (the same
 *                        counter): looked up, sent upstream, stored
 *   memory hit json      the same request again and again: replayed from the entry
 *   memory hit stream    `stream: true` of a request whose entry was recorded from the
 *                        50-event stream: replayed as a stream
 *   redis hit json       `redisResponseCache()` on a local redis-server (started here
 *   redis hit stream     on a free loopback port when `redis-server` is on the PATH or
 *                        `REDIS_SERVER` names it; skipped with a note otherwise)
 *
 * Every answer is checked: status 200, `x-modelgate-cache` as the case
 * expects (absent, `miss` or `hit`), and a stream's last event `[DONE]`; a
 * failed check stops the run with its reason (exit code 1).
 *
 * Figures: the server's CPU time per request, from its own
 * `process.cpuUsage()` (user + system, read over HTTP before and after a
 * batch of `--requests` requests sent one after the other on a keep-alive
 * connection), and the median latency of those requests as the client
 * saw it. Every case runs once per round; rounds alternate the order
 * (A..H, H..A, ...). A ratio is the median over rounds of the per-round
 * ratio to the passthrough case of the same mode (json or stream; the miss
 * case: unique passthrough requests); values
 * are medians of each case's per-round figures. With two or more cores and
 * `taskset`, the server is pinned to core 0 and everything else to core 1.
 *
 * Options: `--rounds <n>` (5), `--requests <n>` per case per round (400),
 * `--smoke` (2 rounds of 30: checks the cases run, not to quote),
 * `--no-pin`, `--out <file>` (JSON: settings, every round's figures, the
 * ratios).
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
import { startBenchRedis } from './lib/redis.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(ROOT, 'bench/servers/modelgate-cache.mjs');
const STUB = join(ROOT, 'bench/servers/stub-upstream.mjs');
const KEY = 'sk-bench';
const JSON_MODEL = 'gpt-bench';
const STREAM_MODEL = 'gpt-bench-s50';

function parseArgs(argv) {
  const options = { rounds: 5, requests: 400, smoke: false, pin: true, out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--rounds') options.rounds = Number(value());
    else if (arg === '--requests') options.requests = Number(value());
    else if (arg === '--smoke') options.smoke = true;
    else if (arg === '--no-pin') options.pin = false;
    else if (arg === '--out') options.out = value();
    else throw new Error(`unknown option ${arg} (options: --rounds <n>, --requests <n>, --smoke, --no-pin, --out <file>)`);
  }
  if (options.smoke) Object.assign(options, { rounds: 2, requests: 30, pin: false });
  for (const name of ['rounds', 'requests']) {
    if (!Number.isInteger(options[name]) || options[name] < 1) throw new Error(`--${name} must be a whole number of at least 1`);
  }
  return options;
}

/** The request bodies: the same conversation, or one made unique by `n`. */
const JSON_BODY = smallChat(JSON_MODEL);
const STREAM_BODY = smallChat(STREAM_MODEL, { stream: true });
const uniqueBody = (n) => JSON_BODY.replace('And now this one:', `And now this one (${n}):`);

/**
 * The cases, in round order. `server` names the server process; `body(i)`
 * the i-th request of a batch; `expect` its `x-modelgate-cache`; `versus`
 * the case it is compared with (default the passthrough of its `mode`).
 */
function casesFor(withRedis) {
  let unique = 0;
  const nextUnique = () => uniqueBody(unique++);
  const cases = [
    { name: 'passthrough json', server: 'none', mode: 'json', expect: undefined, body: () => JSON_BODY },
    { name: 'passthrough json, unique requests', server: 'none', mode: 'json', expect: undefined, body: nextUnique },
    { name: 'passthrough stream', server: 'none', mode: 'stream', expect: undefined, body: () => STREAM_BODY },
    { name: 'memory miss+fill', server: 'memory', mode: 'json', expect: 'miss', body: nextUnique, versus: 'passthrough json, unique requests' },
    { name: 'memory hit json', server: 'memory', mode: 'json', expect: 'hit', body: () => JSON_BODY },
    { name: 'memory hit stream', server: 'memory', mode: 'stream', expect: 'hit', body: () => STREAM_BODY },
  ];
  if (withRedis) {
    cases.push(
      { name: 'redis hit json', server: 'redis', mode: 'json', expect: 'hit', body: () => JSON_BODY },
      { name: 'redis hit stream', server: 'redis', mode: 'stream', expect: 'hit', body: () => STREAM_BODY },
    );
  }
  return cases;
}

const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** One request; throws when the answer is not what the case expects. Resolves with its latency in ms. */
async function send(pool, body, expected, { stream }) {
  const start = performance.now();
  const response = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers: HEADERS, body });
  const text = await response.body.text();
  const ms = performance.now() - start;
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}: ${text.slice(0, 200)}`);
  const cache = response.headers['x-modelgate-cache'];
  if (cache !== expected) throw new Error(`x-modelgate-cache ${cache ?? '(none)'}, expected ${expected ?? '(none)'}`);
  if (stream && !text.trimEnd().endsWith('data: [DONE]')) throw new Error('a stream that did not end with [DONE]');
  if (!stream && !text.startsWith('{')) throw new Error('a non-streamed answer that is not JSON');
  return ms;
}

/** One batch of a case: the server's CPU µs per request and the client's median latency. */
async function measure(server, testCase, count) {
  const stream = testCase.mode === 'stream';
  const before = await serverCpuMicros(server.pool);
  const latencies = [];
  for (let i = 0; i < count; i++) latencies.push(await send(server.pool, testCase.body(i), testCase.expect, { stream }));
  const after = await serverCpuMicros(server.pool);
  return { cpuUsPerRequest: (after - before) / count, latencyMs: median(latencies) };
}

async function startServers(kinds, { stubUrl, redisUrl, pinning }) {
  const servers = {};
  for (const kind of kinds) {
    const started = await startServer({ args: [SERVER], env: { PORT: '0', STUB: stubUrl, BENCH_CACHE: kind, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) }, core: 0, pinning });
    servers[kind] = { ...started, pool: new Pool(`http://127.0.0.1:${started.port}`, { connections: 1, pipelining: 1 }) };
  }
  return servers;
}

/** Fills the entries the hit cases read (a miss each), then warms every case. */
async function warm(servers, cases, count) {
  for (const kind of ['memory', 'redis']) {
    if (!servers[kind]) continue;
    await send(servers[kind].pool, JSON_BODY, 'miss', { stream: false });
    await send(servers[kind].pool, STREAM_BODY, 'miss', { stream: true });
  }
  for (const testCase of cases) await measure(servers[testCase.server], testCase, count);
}

function format(value, digits) {
  return value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
}

function report(cases, rounds) {
  const rows = [];
  for (const testCase of cases) {
    const own = rounds.map((round) => round[testCase.name]).filter(Boolean);
    const base = testCase.versus ?? `passthrough ${testCase.mode}`;
    const cpuRatios = rounds.map((round) => round[testCase.name].cpuUsPerRequest / round[base].cpuUsPerRequest);
    const latencyRatios = rounds.map((round) => round[testCase.name].latencyMs / round[base].latencyMs);
    rows.push({
      case: testCase.name,
      cpuUsPerRequest: median(own.map((figure) => figure.cpuUsPerRequest)),
      cpuRatio: median(cpuRatios),
      cpuRange: [Math.min(...cpuRatios), Math.max(...cpuRatios)],
      latencyMs: median(own.map((figure) => figure.latencyMs)),
      latencyRatio: median(latencyRatios),
      versus: base,
    });
  }
  return rows;
}

function printTable(rows, note) {
  const lines = [
    '| case | server CPU µs/request | × passthrough (median) | range over rounds | latency p50 ms | × passthrough |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.case} | ${format(row.cpuUsPerRequest, 0)} | **${format(row.cpuRatio, 2)}×** | ${format(row.cpuRange[0], 2)}–${format(row.cpuRange[1], 2)} | ${format(row.latencyMs, 2)} | ${format(row.latencyRatio, 2)}× |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n${note ? `\n${note}\n` : ''}`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const log = (message) => process.stderr.write(`${message}\n`);
  log(await ensureDist(ROOT, { log }));
  const pinning = options.pin && canPin();
  pin(process.pid, 1, pinning);
  const stub = await startServer({ args: [STUB], env: { PORT: '0' }, core: 1, pinning });
  const stubUrl = `http://127.0.0.1:${stub.port}`;
  const redis = await startBenchRedis({ core: 1, pinning });
  const note = redis.error ? `Redis cases skipped: ${redis.error} (install redis-server or set REDIS_SERVER).` : undefined;
  if (note) log(note);
  const cases = casesFor(!redis.error);
  const servers = await startServers(redis.error ? ['none', 'memory'] : ['none', 'memory', 'redis'], { stubUrl, redisUrl: redis.url, pinning });
  const load = [loadavg()[0]];
  const rounds = [];
  try {
    await warm(servers, cases, Math.max(10, Math.floor(options.requests / 2)));
    rounds.push(...await alternatedRounds(cases, options.rounds, (testCase) => measure(servers[testCase.server], testCase, options.requests), log));
  } finally {
    load.push(loadavg()[0]);
    await Promise.all(Object.values(servers).map(async (server) => {
      await server.pool.close();
      await server.stop();
    }));
    await stub.stop();
    if (!redis.error) await redis.stop();
  }
  const rows = report(cases, rounds);
  process.stdout.write(`### Response cache: a hit against a passthrough call (${options.rounds} rounds of ${options.requests} requests per case, load average ${load[0].toFixed(1)} → ${load[1].toFixed(1)}, ${cpus().length} cores, pinning ${pinning ? 'on' : 'off'})\n\n`);
  printTable(rows, note);
  if (options.out) {
    const meta = { date: new Date().toISOString(), node: process.version, cores: cpus().length, pinning, loadAverage: load, ...options, redis: redis.error ? { skipped: redis.error } : { ok: true } };
    writeFileSync(options.out, `${JSON.stringify({ meta, rounds, rows }, null, 2)}\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`bench/cache-hit.mjs: ${error.message}\n`);
  process.exit(1);
});
