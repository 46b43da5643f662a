#!/usr/bin/env node
/**
 * `npm run bench [-- options]`: measures modelgate side by side with the
 * direct upstream, bare proxies and Portkey's gateway in one run, prints
 * the tables and writes `bench/results/latest.json`.
 *
 * Options:
 *   --full              the long profile (the figures in BENCHMARKS.md)
 *   --smoke             a few seconds, three targets (used by the tests)
 *   --out <file>        where to write the JSON (default bench/results/latest.json)
 *   --targets a,b       only these targets; --scenarios a,b  only these scenarios
 *   --no-peers          do not install or run Portkey
 *   --no-pin            do not pin processes to cores
 *   --cpu-prof          run the servers under test with `node --cpu-prof` (profiles in bench/results/profiles/)
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureDist } from './lib/build-dist.mjs';
import { addressFor, SCENARIOS, TARGETS } from './lib/matrix.mjs';
import { runCase, warmTarget } from './lib/measure.mjs';
import { ensurePortkey, freePort, installedPortkeyVersion, portkeyArgs } from './lib/peers.mjs';
import { canPin, pin, startServer } from './lib/processes.mjs';
import { loadAverage } from './lib/proc-stats.mjs';
import { PROFILES } from './lib/profiles.mjs';
import { startBenchRedis } from './lib/redis.mjs';
import { addRatios, checkTargets, formatLimitsCost, formatReport } from './lib/report.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
const t0 = Date.now();
const log = (message) => process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);

const { values: args } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    out: { type: 'string' },
    targets: { type: 'string' },
    scenarios: { type: 'string' },
    'no-peers': { type: 'boolean', default: false },
    'no-pin': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
  },
});

const profileName = args.smoke ? 'smoke' : args.full ? 'full' : 'quick';
const profile = PROFILES[profileName];
const onlyTargets = args.targets?.split(',') ?? profile.targets;
const onlyScenarios = args.scenarios?.split(',') ?? profile.scenarios;
const peers = !args['no-peers'] && profileName !== 'smoke';
const pinning = !args['no-pin'] && canPin();
const SERVER_CORE = 0;
const CLIENT_CORE = 1;

/** The (target, scenario) pairs of this run, grouped by target in TARGETS order. */
function plan() {
  const byTarget = new Map();
  for (const [scenarioId, scenario] of Object.entries(SCENARIOS)) {
    if (onlyScenarios && !onlyScenarios.includes(scenarioId)) continue;
    if (profile.skip.includes(scenarioId)) continue;
    for (const targetId of scenario.targets) {
      if (onlyTargets && !onlyTargets.includes(targetId)) continue;
      if (profile.skip.includes(`${targetId}:${scenarioId}`)) continue;
      if (TARGETS[targetId].kind === 'portkey' && !peers) continue;
      if (!byTarget.has(targetId)) byTarget.set(targetId, []);
      byTarget.get(targetId).push(scenarioId);
    }
  }
  return Object.keys(TARGETS).filter((id) => byTarget.has(id)).map((id) => [id, byTarget.get(id)]);
}

async function startTarget(targetId, stubOrigin, portkey) {
  const target = TARGETS[targetId];
  const prof = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', join(BENCH, 'results', 'profiles'), '--cpu-prof-name', `${targetId}-${Date.now()}.cpuprofile`] : [];
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
  log(`profile ${profileName}; pinning ${pinning ? `server → core ${SERVER_CORE}, stub + load → core ${CLIENT_CORE}` : 'off'}`);
  log(await ensureDist(ROOT, { log }));
  const stub = await startServer({ args: [join(BENCH, 'servers/stub-upstream.mjs')], env: { PORT: '0' }, core: CLIENT_CORE, pinning });
  const stubOrigin = `http://127.0.0.1:${stub.port}`;
  const portkey = peers ? await ensurePortkey({ install: true }) : { error: 'skipped (--no-peers)' };
  if (portkey.error && peers) log(`Portkey: ${portkey.error}`);
  const loadBefore = loadAverage();
  const rows = [];
  const pairs = plan();
  // The limits cases need a Redis: started once, for the Redis target and the in-process cost figures.
  const redis = profileName === 'smoke' && !pairs.some(([id]) => TARGETS[id].redis) ? { error: 'not used in the smoke profile' } : await startBenchRedis({ core: CLIENT_CORE, pinning });
  if (redis.error) log(`Redis: ${redis.error}`);
  else process.env.REDIS_URL = redis.url;
  let limitsCost;
  try {
    await measureInRounds(pairs, stubOrigin, portkey, stub, rows);
    await measureSlowStreams(pairs, stubOrigin, portkey, stub, rows);
    limitsCost = await measureLimitsCost(redis.url);
  } finally {
    await stub.stop();
    await redis.stop?.();
  }
  addRatios(rows);
  const targets = checkTargets(rows, limitsCost);
  const report = `${formatReport(rows, targets)}\n\n${formatLimitsCost(limitsCost)}`;
  if (profileName !== 'full') process.stdout.write(`(${profileName} profile: short windows, indicative only; \`npm run bench -- --full\` for figures to quote)\n\n`);
  process.stdout.write(`${report}\n`);
  const out = args.out ?? join(BENCH, 'results', 'latest.json');
  mkdirSync(dirname(out), { recursive: true });
  const meta = {
    date: new Date().toISOString(), profile: profileName, seconds: Math.round((Date.now() - started) / 1000),
    node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, memoryGB: Math.round(totalmem() / 2 ** 30),
    pinning, loadGenerator: 'autocannon 8 (non-streamed), undici stream client (streams)',
    loadAverage: { before: loadBefore, after: loadAverage() }, portkey: installedPortkeyVersion() ?? null,
    settings: profile, git: gitState(),
  };
  writeFileSync(out, `${JSON.stringify({ meta, rows, targets, limitsCost }, null, 2)}\n`);
  log(`wrote ${out} in ${meta.seconds} s (load average ${meta.loadAverage.before} → ${meta.loadAverage.after})`);
}

/**
 * The CPU the limits step adds per request, measured in one process pinned to
 * the server core (bench/lib/limits-cost.mjs): `{ rows }` or `{ error }`.
 */
function measureLimitsCost(redisUrl) {
  const seconds = profileName === 'full' ? 2 : profileName === 'smoke' ? 0.1 : 0.4;
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

/** A failed case's row. */
const errorRow = (target, scenario, error) => ({ target, scenario, error: String(error?.message ?? error).split('\n')[0] });

/**
 * The load and stream cases. Every target's server runs at once (all pinned
 * to the server core; idle ones cost nothing), each is warmed on all its
 * cases first, then every scenario is measured in `profile.rounds` rounds
 * that take the targets in turn (forwards, then backwards), so a slow drift
 * of the machine falls on all of them alike. A row is the round with the
 * lowest server CPU per request (or event): the least disturbed window.
 */
async function measureInRounds(pairs, stubOrigin, portkey, stub, rows) {
  const servers = new Map();
  const fastPairs = pairs
    .map(([targetId, scenarioIds]) => [targetId, scenarioIds.filter((id) => !FRESH_PROCESS.has(SCENARIOS[id].type))])
    .filter(([, scenarioIds]) => scenarioIds.length > 0);
  try {
    for (const [targetId, scenarioIds] of fastPairs) {
      try {
        const server = await startTarget(targetId, stubOrigin, portkey);
        servers.set(targetId, server);
        const cases = scenarioIds.map((id) => ({ scenario: SCENARIOS[id], address: addressFor(TARGETS[targetId], SCENARIOS[id], { stubOrigin, prefix: SCENARIOS[id].prefix }) }));
        await warmTarget({ origin: `http://127.0.0.1:${server.port}`, cases, seconds: profile.processWarmSeconds, connections: profile.load.connections });
      } catch (error) {
        for (const scenario of scenarioIds) rows.push(errorRow(targetId, scenario, error));
        log(`${targetId}: not started: ${String(error.message).split('\n')[0]}`);
      }
    }
    const rounds = profile.rounds ?? 1;
    for (const scenarioId of Object.keys(SCENARIOS)) {
      const targets = fastPairs.filter(([targetId, scenarioIds]) => scenarioIds.includes(scenarioId) && servers.has(targetId)).map(([targetId]) => targetId);
      if (targets.length === 0) continue;
      const scenario = SCENARIOS[scenarioId];
      const results = new Map(targets.map((targetId) => [targetId, []]));
      for (let round = 0; round < rounds; round++) {
        for (const targetId of round % 2 === 0 ? targets : [...targets].reverse()) {
          const server = servers.get(targetId);
          if (server.exited()) {
            results.get(targetId).push({ error: `server died: ${server.lastWords()}` });
            continue;
          }
          const address = addressFor(TARGETS[targetId], scenario, { stubOrigin, prefix: scenario.prefix });
          try {
            const figures = await runCase({ server, origin: `http://127.0.0.1:${server.port}`, address, scenario, profiles: profile, stubPid: stub.pid });
            if (server.exited()) throw new Error(`server died: ${server.lastWords()}`);
            results.get(targetId).push(figures);
            log(`${targetId} / ${scenarioId}${rounds > 1 ? ` (round ${round + 1})` : ''}: ${summary(figures)}`);
          } catch (error) {
            results.get(targetId).push({ error: String(error.message ?? error).split('\n')[0] });
            log(`${targetId} / ${scenarioId}: failed: ${error.message ?? error}`);
          }
        }
      }
      for (const targetId of targets) rows.push(pickRound(targetId, scenarioId, results.get(targetId)));
    }
  } finally {
    for (const server of servers.values()) await server.stop();
  }
}

/** The least disturbed round (lowest CPU per unit of work) as the row; every round's key figures kept in `rounds`. */
function pickRound(target, scenario, results) {
  const good = results.filter((r) => !r.error);
  if (good.length === 0) return errorRow(target, scenario, results[0]?.error ?? 'not measured');
  const cost = (r) => (Number.isFinite(r.cpuUsPerEvent) ? r.cpuUsPerEvent : r.cpuUsPerReq);
  const best = good.reduce((a, b) => (cost(b) < cost(a) ? b : a));
  const clientBound = best.loadCpuShare > 0.9;
  const rounds = results.map((r) => (r.error ? { error: r.error } : { rps: r.rps, eventsPerSec: r.eventsPerSec, cpuUsPerReq: r.cpuUsPerReq, cpuUsPerEvent: r.cpuUsPerEvent }));
  return { target, scenario, ...best, ...(clientBound ? { clientBound } : {}), ...(results.length > 1 ? { rounds } : {}) };
}

/** Scenario types measured in a fresh server process each (memory against a clean baseline). */
const FRESH_PROCESS = new Set(['slow', 'readers']);

/**
 * Slow streams and slow readers: each target in a fresh process (memory is
 * read against a clean baseline), warmed with fast streams first. With
 * `profile.slowRounds` > 1 every case runs that many times, the targets
 * taken in turn (forwards, then backwards), and the row holds the median of
 * each figure (this machine moves a single run's first-event p99 by ±30 %).
 */
async function measureSlowStreams(pairs, stubOrigin, portkey, stub, rows) {
  const cases = pairs.flatMap(([targetId, scenarioIds]) => scenarioIds.filter((id) => FRESH_PROCESS.has(SCENARIOS[id].type)).map((scenarioId) => [targetId, scenarioId]));
  const rounds = profile.slowRounds ?? 1;
  const results = new Map(cases.map(([targetId, scenarioId]) => [`${targetId}:${scenarioId}`, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [targetId, scenarioId] of round % 2 === 0 ? cases : [...cases].reverse()) {
      const figures = await measureSlowCase(targetId, scenarioId, stubOrigin, portkey, stub);
      results.get(`${targetId}:${scenarioId}`).push(figures);
      const label = `${targetId} / ${scenarioId}${rounds > 1 ? ` (round ${round + 1})` : ''}`;
      log(`${label}: ${figures.error ? `failed: ${figures.error}` : summary(figures)}`);
    }
  }
  for (const [targetId, scenarioId] of cases) rows.push(medianRow(targetId, scenarioId, results.get(`${targetId}:${scenarioId}`)));
}

/** One slow case in a freshly started server: its figures, or `{ error }`. */
async function measureSlowCase(targetId, scenarioId, stubOrigin, portkey, stub) {
  const scenario = SCENARIOS[scenarioId];
  const prefix = typeof scenario.prefix === 'function' ? scenario.prefix(profile.slow.events) : scenario.prefix;
  const address = addressFor(TARGETS[targetId], scenario, { stubOrigin, prefix });
  const fast = SCENARIOS['stream-50'];
  const warmAddress = { ...addressFor(TARGETS[targetId], fast, { stubOrigin, prefix: fast.prefix }), body: fast.body() };
  let server;
  try {
    server = await startTarget(targetId, stubOrigin, portkey);
  } catch (error) {
    return { error: String(error?.message ?? error).split('\n')[0] };
  }
  try {
    const figures = await runCase({ server, origin: `http://127.0.0.1:${server.port}`, address, scenario, profiles: profile, warmAddress, stubPid: stub.pid, stubOrigin, target: TARGETS[targetId] });
    if (server.exited()) throw new Error(`server died: ${server.lastWords()}`);
    return figures;
  } catch (error) {
    return { error: String(error?.message ?? error).split('\n')[0] };
  } finally {
    await server.stop();
  }
}

/** Flags and counts where the worst round is the honest figure (a stream lost, an upstream not held back). */
const WORST_OF = { ok: Math.min, failed: Math.max, heldBack: Math.min, allComplete: (...v) => v.every(Boolean), allOpen: (...v) => v.every(Boolean), firstWaveOpen: (...v) => v.every(Boolean) };

/** The median of each figure over the rounds (the worst for counts and flags); every round's key figures kept in `rounds`. */
function medianRow(target, scenario, results) {
  const good = results.filter((r) => !r.error);
  if (good.length === 0) return errorRow(target, scenario, results[0]?.error ?? 'not measured');
  if (good.length < results.length) return errorRow(target, scenario, `${results.length - good.length} of ${results.length} rounds failed: ${results.find((r) => r.error).error}`);
  const row = { target, scenario };
  for (const key of Object.keys(good[0])) {
    const values = good.map((r) => r[key]);
    if (key in WORST_OF) row[key] = WORST_OF[key](...values);
    else if (values.every((v) => typeof v === 'number')) row[key] = median(values);
    else row[key] = values[0];
  }
  if (results.length > 1) {
    row.rounds = good.map((r) => ({ memPerStreamKB: r.memPerStreamKB, firstEventP50Ms: r.firstEventP50Ms, firstEventP99Ms: r.firstEventP99Ms, heldBack: r.heldBack }));
  }
  return row;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The commit measured, and whether the working tree's sources differed from it. */
function gitState() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'adapters'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return { commit, uncommittedSourceChanges: dirty };
  } catch {
    return null;
  }
}

function summary(r) {
  if (r.heldBack !== undefined) return `${r.ok}/${r.streams} open, ${r.memPerStreamKB.toFixed(1)} KB/stream, readers ${r.readerKBps.toFixed(1)} KB/s, unread upstreams held back ${r.heldBack}/${r.unreadUpstreams} (max ${r.heldBackMaxKB.toFixed(0)} KB written)`;
  if (r.memPerStreamKB !== undefined) return `${r.ok}/${r.streams} complete, ${r.memPerStreamKB.toFixed(1)} KB/stream, first event p50 ${r.firstEventP50Ms?.toFixed(1)} ms`;
  if (r.eventsPerSec !== undefined) return `${Math.round(r.eventsPerSec)} events/s, ${r.cpuUsPerEvent.toFixed(2)} µs/event, ttfb ${r.ttfbP50Ms?.toFixed(2)} ms, failed ${r.failed}, load side ${(100 * r.loadCpuShare).toFixed(0)}%`;
  return `${Math.round(r.rps)} req/s, ${Math.round(r.cpuUsPerReq)} µs/req, p50 ${r.p50Ms} ms, failed ${r.failed}, load side ${(100 * r.loadCpuShare).toFixed(0)}% of a core`;
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exitCode = 1;
});
