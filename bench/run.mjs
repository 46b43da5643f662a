#!/usr/bin/env node
/**
 * `npm run bench [-- options]`: measures modelgate side by side with bare
 * proxies and Portkey's gateway in one run, in alternated rounds, prints the
 * tables of BENCHMARKS.md and writes every figure to a JSON file.
 * `--help` lists the options.
 *
 * Method (BENCHMARKS.md, "Method", in short): each server under test is its
 * own process pinned to core 0, everything else to core 1. A server is
 * warmed on each of its cases (`processWarmSeconds` each, `warmTarget`)
 * before the first round; slow-stream and slow-reader cases get a fresh
 * server per round, warmed with fast streams before its baseline RSS is
 * read (`runCase`). Server CPU comes from `/proc/<pid>/task/*\/schedstat`
 * over the measured window only. Rounds take the cases in turn, the next
 * round in reverse order; a row's ratio is the median of its per-round
 * ratios, its values the medians of each case's own figures.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDist } from './lib/build-dist.mjs';
import { addressFor, SCENARIOS, TARGETS } from './lib/matrix.mjs';
import { runCase, warmTarget } from './lib/measure.mjs';
import { parseOptions, USAGE } from './lib/options.mjs';
import { ensurePortkey, freePort, installedPortkeyVersion, portkeyArgs } from './lib/peers.mjs';
import { canPin, pin, startServer } from './lib/processes.mjs';
import { loadAverage } from './lib/proc-stats.mjs';
import { PROFILES } from './lib/profiles.mjs';
import { startBenchRedis } from './lib/redis.mjs';
import { formatLimitsCost, formatTable, tableRows } from './lib/report.mjs';
import { tableCases } from './lib/tables.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
const t0 = Date.now();
const log = (message) => process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);

const parsed = parseOptions(process.argv.slice(2));
if (parsed.error) {
  process.stderr.write(`bench: ${parsed.error}\nRun \`npm run bench -- --help\` for the options.\n`);
  process.exit(2);
}
if (parsed.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const args = parsed.options;
const profile = PROFILES[args.profile];
const tables = args.tables ?? profile.tables;
const rounds = args.rounds ?? profile.rounds;
const pinning = args.pin && canPin();
const SERVER_CORE = 0;
const CLIENT_CORE = 1;

/** Scenario types measured in a fresh server process each round (memory against a clean baseline). */
const FRESH_PROCESS = new Set(['slow', 'readers']);

async function startTarget(targetId, stubOrigin, portkey) {
  const target = TARGETS[targetId];
  const prof = args.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', join(BENCH, 'results', 'profiles'), '--cpu-prof-name', `${targetId}-${Date.now()}.cpuprofile`] : [];
  if (target.kind === 'portkey') {
    if (portkey.error) throw new Error(portkey.error);
    const port = await freePort();
    return startServer({
      args: [...prof, ...portkeyArgs(portkey.entry, port, { shim: target.shim === true })],
      env: { NODE_ENV: 'production' },
      core: SERVER_CORE, pinning, portPattern: /localhost:(\d+)/,
    });
  }
  return startServer({ args: [...prof, join(BENCH, target.script)], env: { PORT: '0', STUB: stubOrigin, ...target.env }, core: SERVER_CORE, pinning });
}

async function main() {
  const started = Date.now();
  pin(process.pid, CLIENT_CORE, pinning);
  log(`profile ${args.profile}, tables ${tables.join(', ')}${args.only ? ` (only ${args.only.join(', ')})` : ''}, ${rounds} round(s); pinning ${pinning ? `server → core ${SERVER_CORE}, stub + load → core ${CLIENT_CORE}` : 'off'}`);
  log(await ensureDist(ROOT, { log }));
  const cases = tableCases(tables).filter(([, scenarioId]) => args.only === undefined || args.only.includes(scenarioId));
  const stub = await startServer({ args: [join(BENCH, 'servers/stub-upstream.mjs')], env: { PORT: '0' }, core: CLIENT_CORE, pinning });
  const stubOrigin = `http://127.0.0.1:${stub.port}`;
  const wantsPortkey = cases.some(([targetId]) => TARGETS[targetId].kind === 'portkey');
  const portkey = !wantsPortkey ? { error: 'not used' } : args.peers ? await ensurePortkey({ install: true }) : { error: 'skipped (--no-peers)' };
  if (wantsPortkey && portkey.error) log(`Portkey: ${portkey.error}`);
  const wantsRedis = cases.some(([targetId]) => TARGETS[targetId].redis) || tables.includes('features');
  const redis = wantsRedis ? await startBenchRedis({ core: CLIENT_CORE, pinning }) : { error: 'not used' };
  if (wantsRedis && redis.error) log(`Redis: ${redis.error}`);
  else if (redis.url) process.env.REDIS_URL = redis.url;
  const loadBefore = loadAverage();
  let results;
  let limitsCost;
  try {
    results = await measureInRounds(cases, stubOrigin, portkey, stub, redis);
    if (tables.includes('features')) limitsCost = await measureLimitsCost(redis.url);
  } finally {
    await stub.stop();
    await redis.stop?.();
  }
  const rowsByTable = Object.fromEntries(tables.map((id) => [id, tableRows(id, results)]));
  const report = [
    ...(args.profile === 'quick' ? ['(quick profile: short windows, indicative only; `npm run bench -- --full` for figures to quote)\n'] : []),
    ...tables.map((id) => formatTable(id, rowsByTable[id])),
    ...(limitsCost ? [formatLimitsCost(limitsCost)] : []),
  ].join('\n\n');
  process.stdout.write(`${report}\n`);
  const out = args.out ?? join(BENCH, 'results', `${tables.join('+')}.json`);
  mkdirSync(dirname(out), { recursive: true });
  const meta = {
    date: new Date().toISOString(), profile: args.profile, tables, rounds, seconds: Math.round((Date.now() - started) / 1000),
    node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, memoryGB: Math.round(totalmem() / 2 ** 30),
    pinning, loadGenerator: 'autocannon 8 (non-streamed), undici stream client (streams)',
    loadAverage: { before: loadBefore, after: loadAverage() }, portkey: wantsPortkey ? installedPortkeyVersion() ?? null : null,
    settings: profile, git: gitState(),
  };
  const cases_ = Object.fromEntries([...results].map(([key, value]) => [key, value]));
  writeFileSync(out, `${JSON.stringify({ meta, tables: rowsByTable, cases: cases_, limitsCost }, null, 2)}\n`);
  log(`wrote ${out} in ${meta.seconds} s (load average ${meta.loadAverage.before} → ${meta.loadAverage.after})`);
}

/**
 * The CPU the limits step adds per request, measured in one process pinned to
 * the server core (bench/lib/limits-cost.mjs): `{ rows }` or `{ error }`.
 */
function measureLimitsCost(redisUrl) {
  const seconds = args.profile === 'full' ? 2 : args.profile === 'smoke' ? 0.1 : 0.4;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [join(BENCH, 'lib/limits-cost.mjs'), redisUrl ?? '-', String(seconds)], { cwd: ROOT, timeout: 120_000 }, (error, stdout) => {
      if (error) {
        log(`limits cost: failed: ${String(error.message).split('\n')[0]}`);
        resolve({ error: String(error.message).split('\n')[0] });
        return;
      }
      const rows = JSON.parse(stdout.trim().split('\n').at(-1));
      log(`limits cost: ${rows.map((row) => `${row.config} +${row.addedCpuUs.toFixed(1)} µs`).join(', ')}`);
      resolve({ rows, secondsPerRound: seconds });
    });
    pin(child.pid, SERVER_CORE, pinning);
  });
}

const firstLine = (error) => String(error?.message ?? error).split('\n')[0];

/**
 * Measures every case `rounds` times. Servers for the fast cases all run at
 * once (pinned to the server core; idle ones cost nothing) and are warmed on
 * each of their cases first. A round takes every case in turn, the next
 * round in the reverse order (A, B, C, C, B, A, ...), so a drift of the
 * machine falls on all cases alike. Slow-stream and slow-reader cases start
 * a fresh server each time. Resolves a Map "target:scenario" → per-round results.
 */
async function measureInRounds(cases, stubOrigin, portkey, stub, redis) {
  const results = new Map(cases.map((item) => [item.join(':'), []]));
  const servers = new Map();
  const broken = new Map();
  try {
    for (const targetId of new Set(cases.filter(([, s]) => !FRESH_PROCESS.has(SCENARIOS[s].type)).map(([t]) => t))) {
      try {
        if (TARGETS[targetId].redis && redis.error) throw new Error(`Redis: ${redis.error}`);
        const server = await startTarget(targetId, stubOrigin, portkey);
        servers.set(targetId, server);
        const warm = cases.filter(([t, s]) => t === targetId && !FRESH_PROCESS.has(SCENARIOS[s].type))
          .map(([, s]) => ({ scenario: SCENARIOS[s], address: addressFor(TARGETS[targetId], SCENARIOS[s], { stubOrigin, prefix: SCENARIOS[s].prefix }) }));
        await warmTarget({ origin: `http://127.0.0.1:${server.port}`, cases: warm, seconds: profile.processWarmSeconds, connections: profile.load.connections });
      } catch (error) {
        broken.set(targetId, firstLine(error));
        log(`${targetId}: not started: ${firstLine(error)}`);
      }
    }
    for (let round = 0; round < rounds; round++) {
      for (const [targetId, scenarioId] of round % 2 === 0 ? cases : [...cases].reverse()) {
        const label = `${targetId} / ${scenarioId}${rounds > 1 ? ` (round ${round + 1})` : ''}`;
        let figures;
        if (broken.has(targetId)) figures = { error: broken.get(targetId) };
        else if (FRESH_PROCESS.has(SCENARIOS[scenarioId].type)) figures = await measureFreshCase(targetId, scenarioId, stubOrigin, portkey, stub);
        else figures = await measureCase(servers.get(targetId), targetId, scenarioId, stubOrigin, stub);
        results.get(`${targetId}:${scenarioId}`).push(figures);
        log(`${label}: ${figures.error ? `failed: ${figures.error}` : summary(figures)}`);
      }
    }
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  return results;
}

/** One fast case on its running server: its figures, or `{ error }`. */
async function measureCase(server, targetId, scenarioId, stubOrigin, stub) {
  const scenario = SCENARIOS[scenarioId];
  if (server.exited()) return { error: `server died: ${server.lastWords()}` };
  try {
    const address = addressFor(TARGETS[targetId], scenario, { stubOrigin, prefix: scenario.prefix });
    const figures = await runCase({ server, origin: `http://127.0.0.1:${server.port}`, address, scenario, profiles: profile, stubPid: stub.pid });
    if (server.exited()) throw new Error(`server died: ${server.lastWords()}`);
    return figures;
  } catch (error) {
    return { error: firstLine(error) };
  }
}

/** One slow case in a freshly started server, warmed with fast streams first: its figures, or `{ error }`. */
async function measureFreshCase(targetId, scenarioId, stubOrigin, portkey, stub) {
  const scenario = SCENARIOS[scenarioId];
  const prefix = typeof scenario.prefix === 'function' ? scenario.prefix(profile.slow.events) : scenario.prefix;
  const address = addressFor(TARGETS[targetId], scenario, { stubOrigin, prefix });
  const fast = SCENARIOS['stream-50'];
  const warmAddress = { ...addressFor(TARGETS[targetId], fast, { stubOrigin, prefix: fast.prefix }), body: fast.body() };
  let server;
  try {
    server = await startTarget(targetId, stubOrigin, portkey);
  } catch (error) {
    return { error: firstLine(error) };
  }
  try {
    const figures = await runCase({ server, origin: `http://127.0.0.1:${server.port}`, address, scenario, profiles: profile, warmAddress, stubPid: stub.pid, stubOrigin, target: TARGETS[targetId] });
    if (server.exited()) throw new Error(`server died: ${server.lastWords()}`);
    return figures;
  } catch (error) {
    return { error: firstLine(error) };
  } finally {
    await server.stop();
  }
}

/** The commit measured, and whether the working tree's sources differed from it. */
function gitState() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return { commit, uncommittedSourceChanges: dirty };
  } catch {
    return null;
  }
}

function summary(r) {
  if (r.heldBack !== undefined) return `${r.ok}/${r.streams} open, ${r.memPerStreamKB.toFixed(1)} KB/stream, unread upstreams held back ${r.heldBack}/${r.unreadUpstreams}`;
  if (r.memPerStreamKB !== undefined) return `${r.ok}/${r.streams} complete, ${r.memPerStreamKB.toFixed(1)} KB/stream, first event p50 ${r.firstEventP50Ms?.toFixed(1)} ms, p99 ${r.firstEventP99Ms?.toFixed(1)} ms`;
  if (r.eventsPerSec !== undefined) return `${Math.round(r.eventsPerSec)} events/s, ${r.cpuUsPerEvent.toFixed(2)} µs/event, failed ${r.failed}, load side ${(100 * r.loadCpuShare).toFixed(0)}%`;
  return `${Math.round(r.rps)} req/s, ${Math.round(r.cpuUsPerReq)} µs/req, p50 ${r.p50Ms} ms, failed ${r.failed}, load side ${(100 * r.loadCpuShare).toFixed(0)}%`;
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exitCode = 1;
});
