#!/usr/bin/env node
/**
 * `node bench/burst.mjs`: a gateway instance under a burst, with and
 * without admission control (`admission: { maxInFlight: M, maxPerPrincipal: M }`: every client uses one key).
 *
 * The instance (the built node handler, in a fresh process per round)
 * sends every model call to a simulated upstream of its own that serves M
 * calls at once, DELAY_MS each, and queues the rest (as a model server
 * does). STEADY clients call it in a loop (well within capacity); after
 * PHASE_MS, BURST = 10 × M more clients join for PHASE_MS, each calling
 * again at once after an answer and RETRY_MS (default 1000, as the refusal's
 * `retry-after: 1` asks) after a refusal. Each call
 * carries a prompt of BODY_KB KiB.
 *
 * Reported per mode (medians over alternated rounds): p50 / p99 latency of
 * the steady clients' calls that were answered, before and during the
 * burst, and of every call answered during the burst; steady calls refused; burst calls answered and refused; the
 * server's RSS and heap growth (peak during the burst minus the last
 * sample before it).
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, Agent } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDist } from './lib/build-dist.mjs';
import { CHAT_JSON } from './lib/wire-bodies.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const M = env('MAX_IN_FLIGHT', 32);
const DELAY_MS = env('DELAY_MS', 200);
const STEADY = env('STEADY', Math.max(1, Math.floor(M / 4)));
const BURST = env('BURST', 10 * M);
const PHASE_MS = env('PHASE_MS', 4000);
const RETRY_MS = env('RETRY_MS', 1000);
const BODY_KB = env('BODY_KB', 32);
const ROUNDS = env('ROUNDS', 3);
const KEY = 'sk-bench-burst';

/** The server process: the gateway with (or without) admission control, and its upstream. */
async function serve(admission) {
  const { createNodeHandler } = await import(join(ROOT, 'dist/node.js'));
  let busy = 0;
  const waiting = [];
  const release = () => {
    busy--;
    const next = waiting.shift();
    if (next) next();
  };
  const slot = () => (busy < M ? (busy++, Promise.resolve()) : new Promise((resolve) => waiting.push(() => (busy++, resolve()))));
  const upstream = {
    name: 'model-server',
    format: 'chat',
    async send(call) {
      await slot();
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      release();
      void call;
      return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(CHAT_JSON.byteLength) }, body: (async function* () { yield CHAT_JSON; })() };
    },
  };
  const handler = createNodeHandler({
    auth: { keys: [KEY] },
    routes: [{ match: '*', upstream }],
    requestTimeoutMs: 0,
    // One key for every client: its share is every place, as the instance's own limit is what is measured.
    ...(admission ? { admission: { maxInFlight: M, maxPerPrincipal: M } } : {}),
  });
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    process.send({ rss, heapUsed });
  }, 50);
  process.on('message', (message) => {
    if (message === 'stop') process.exit(0);
  });
}

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const median = (values) => percentile(values, 50);

async function round(admission) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', admission ? 'on' : 'off'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: process.env });
  const memory = [];
  const port = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message) => {
      if (message.port) resolve(message.port);
      else memory.push({ at: performance.now(), ...message });
    });
  });
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const body = JSON.stringify({ model: 'gpt-bench', messages: [{ role: 'user', content: 'x'.repeat(BODY_KB * 1024) }] });
  const call = () =>
    new Promise((resolve) => {
      const started = performance.now();
      const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/chat/completions', method: 'POST', agent, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started, at: started }));
      });
      req.on('error', () => resolve({ status: 0, ms: performance.now() - started, at: started }));
      req.end(body);
    });
  const results = { steady: [], burst: [] };
  let stopAt = Infinity;
  const client = async (kind) => {
    while (performance.now() < stopAt) {
      const result = await call();
      results[kind].push(result);
      if (result.status !== 200) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  // Warm-up, then the steady phase, then the burst.
  for (let i = 0; i < 20; i++) await call();
  const steadyStart = performance.now();
  stopAt = steadyStart + 2 * PHASE_MS;
  const steady = Array.from({ length: STEADY }, () => client('steady'));
  await new Promise((resolve) => setTimeout(resolve, PHASE_MS));
  const burstStart = performance.now();
  const burst = Array.from({ length: BURST }, () => client('burst'));
  await Promise.all([...steady, ...burst]);
  const burstEnd = performance.now();
  child.send('stop');
  agent.destroy();
  await new Promise((resolve) => child.once('exit', resolve));

  const before = results.steady.filter((r) => r.at >= steadyStart + 500 && r.at < burstStart && r.status === 200).map((r) => r.ms);
  const during = results.steady.filter((r) => r.at >= burstStart && r.status === 200).map((r) => r.ms);
  const admitted = [...results.steady, ...results.burst].filter((r) => r.at >= burstStart && r.status === 200).map((r) => r.ms);
  const baseline = memory.filter((m) => m.at < burstStart).at(-1) ?? memory[0];
  const peak = memory.filter((m) => m.at >= burstStart && m.at <= burstEnd);
  return {
    beforeP50: percentile(before, 50),
    beforeP99: percentile(before, 99),
    duringP50: percentile(during, 50),
    duringP99: percentile(during, 99),
    admittedP50: percentile(admitted, 50),
    admittedP99: percentile(admitted, 99),
    steadyRefused: results.steady.filter((r) => r.at >= burstStart && r.status !== 200).length,
    steadyAnswered: during.length,
    burstAnswered: results.burst.filter((r) => r.status === 200).length,
    burstRefused: results.burst.filter((r) => r.status === 503).length,
    burstFailed: results.burst.filter((r) => r.status !== 200 && r.status !== 503).length,
    rssGrowthMB: (Math.max(...peak.map((m) => m.rss)) - baseline.rss) / 2 ** 20,
    heapGrowthMB: (Math.max(...peak.map((m) => m.heapUsed)) - baseline.heapUsed) / 2 ** 20,
  };
}

async function main() {
  await ensureDist(ROOT, { log: (message) => process.stderr.write(`${message}\n`) });
  process.stderr.write(`burst: maxInFlight ${M}, upstream ${M} at once × ${DELAY_MS} ms, ${STEADY} steady clients, burst of ${BURST}, ${PHASE_MS} ms per phase, ${BODY_KB} KiB prompts, ${ROUNDS} rounds\n`);
  const samples = { on: [], off: [] };
  for (let index = 0; index < ROUNDS; index++) {
    for (const mode of index % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      const result = await round(mode === 'on');
      samples[mode].push(result);
      process.stderr.write(`round ${index + 1} admission ${mode}: ${JSON.stringify(result, (_k, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}\n`);
    }
  }
  const fmt = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
  const row = (label, mode) => {
    const of = (key) => median(samples[mode].map((s) => s[key]));
    return `| ${label} | ${fmt(of('beforeP50'))} / ${fmt(of('beforeP99'))} | ${fmt(of('duringP50'))} / ${fmt(of('duringP99'))} | ${fmt(of('admittedP50'))} / ${fmt(of('admittedP99'))} | ${fmt(of('steadyRefused'))} | ${fmt(of('burstAnswered'))} / ${fmt(of('burstRefused'))} | ${fmt(of('rssGrowthMB'), 1)} | ${fmt(of('heapGrowthMB'), 1)} |`;
  };
  console.log(`Burst of ${BURST} clients (10 × maxInFlight ${M}) on ${STEADY} steady ones; upstream serves ${M} at once, ${DELAY_MS} ms per call; medians of ${ROUNDS} rounds.\n`);
  console.log('| Instance | Steady p50 / p99 before (ms) | Steady p50 / p99 during burst (ms) | All answered calls p50 / p99 during burst (ms) | Steady refused | Burst answered / refused | RSS growth (MB) | Heap growth (MB) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  console.log(row(`admission: { maxInFlight: ${M}, maxPerPrincipal: ${M} }`, 'on'));
  console.log(row('no admission control', 'off'));
}

if (process.argv[2] === '--serve') await serve(process.argv[3] === 'on');
else await main();
