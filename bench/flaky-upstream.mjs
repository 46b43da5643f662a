#!/usr/bin/env node
/**
 * `node bench/flaky-upstream.mjs`: what the gateway's cooldowns do to calls
 * when an upstream fails part of the time, with today's defaults and with
 * the rule they replaced (a target cools after 3 failures in a row, and a
 * route whose targets all cool refuses at once: `cooldown: { failures: 3 }`,
 * `whenAllCooling: 'reject'`).
 *
 * The built gateway (`dist/index.js`) is called through `gateway.handle`
 * by CONCURRENCY callers at once, CALLS calls per scenario. Upstreams are
 * in-process: each answers after UPSTREAM_MS with 200, or with a 500 on a
 * seeded random share of its calls; a hard-down one answers every call with
 * a 500 after DOWN_MS (a struggling server, not a refused connection).
 *
 * Scenarios:
 * - one target failing 15 % of its calls, no fallback;
 * - one target failing 6 % (a mildly flaky upstream);
 * - two targets, one failing 15 %;
 * - two targets, one hard down.
 *
 * Reported per scenario and rule: calls refused by the gateway without an
 * upstream attempt (503 `upstream_cooling`), calls answered 200, calls that
 * reached each upstream, and the p50 / p99 latency of calls answered 200.
 * One run per row (seeded, so repeatable); latencies are of this noisy
 * machine and only comparable within a row pair.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDist } from './lib/build-dist.mjs';
import { CHAT_JSON } from './lib/wire-bodies.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const CALLS = env('CALLS', 1200);
const CONCURRENCY = env('CONCURRENCY', 16);
const UPSTREAM_MS = env('UPSTREAM_MS', 2);
const DOWN_MS = env('DOWN_MS', 50);
const KEY = 'sk-bench-flaky-0123456789';

/** A small seeded generator (mulberry32), so each scenario's faults are the same for both rules. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ERROR_JSON = Buffer.from(JSON.stringify({ error: { message: 'internal error', type: 'server_error' } }));

function upstream(name, { failRate = 0, down = false, seed = 1 }) {
  const draw = random(seed);
  const counts = { name, sent: 0 };
  const answer = (status, bytes) => ({ status, headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) }, body: (async function* () { yield bytes; })() });
  return {
    counts,
    upstream: {
      name,
      format: 'chat',
      async send() {
        counts.sent++;
        await new Promise((resolve) => setTimeout(resolve, down ? DOWN_MS : UPSTREAM_MS));
        if (down || draw() < failRate) return answer(500, ERROR_JSON);
        return answer(200, CHAT_JSON);
      },
    },
  };
}

const BODY = { model: 'team-model', messages: [{ role: 'user', content: 'hello' }] };

async function run(createGateway, scenario, rule) {
  const targets = scenario.targets.map((spec, index) => upstream(`target-${index}`, spec));
  const route = targets.length === 1
    ? { match: 'team-model', upstream: targets[0].upstream, retries: 0 }
    : { match: 'team-model', targets: targets.map((t) => ({ upstream: t.upstream })), retries: 0 };
  if (rule.whenAllCooling) route.whenAllCooling = rule.whenAllCooling;
  const gateway = createGateway({ auth: { keys: [KEY] }, routes: [route], ...(rule.cooldown ? { routing: { cooldown: rule.cooldown } } : {}) });
  const result = { refused: 0, ok: 0, other: 0, latencies: [] };
  let next = 0;
  const caller = async () => {
    while (next < CALLS) {
      next++;
      const started = performance.now();
      const response = await gateway.handle({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: BODY,
        signal: new AbortController().signal,
      });
      let text = '';
      const body = response.body;
      if (response.type === 'json') text = JSON.stringify(body);
      else if (body instanceof Uint8Array) text = Buffer.from(body).toString();
      else for await (const chunk of body) text += Buffer.from(chunk).toString();
      if (response.status === 200) {
        result.ok++;
        result.latencies.push(performance.now() - started);
      } else if (text.includes('upstream_cooling')) result.refused++;
      else result.other++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  await gateway.close();
  result.sent = targets.map((t) => t.counts.sent);
  return result;
}

const quantile = (values, q) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

const SCENARIOS = [
  { name: 'one target, 15 % faults', targets: [{ failRate: 0.15, seed: 11 }] },
  { name: 'one target, 6 % faults', targets: [{ failRate: 0.06, seed: 12 }] },
  { name: 'two targets, one at 15 %', targets: [{ failRate: 0.15, seed: 13 }, { seed: 14 }] },
  { name: 'two targets, one hard down', targets: [{ down: true }, { seed: 15 }] },
];
const RULES = [
  { name: 'defaults', cooldown: undefined, whenAllCooling: undefined },
  { name: '3 in a row, reject', cooldown: { failures: 3 }, whenAllCooling: 'reject' },
];

await ensureDist(ROOT, { log: (line) => console.error(line) });
const { createGateway } = await import(join(ROOT, 'dist/index.js'));
console.log(`${CALLS} calls per row, ${CONCURRENCY} at once; upstream answers in ${UPSTREAM_MS} ms (hard down: 500 after ${DOWN_MS} ms)\n`);
console.log('| Scenario | Rule | Refused without an attempt | Answered 200 | Other errors | Reached each upstream | p50 / p99 ms (200s) |');
console.log('|---|---|---:|---:|---:|---|---|');
for (const scenario of SCENARIOS) {
  for (const rule of RULES) {
    const r = await run(createGateway, scenario, rule);
    console.log(`| ${scenario.name} | ${rule.name} | ${r.refused} | ${r.ok} | ${r.other} | ${r.sent.join(' / ')} | ${quantile(r.latencies, 0.5).toFixed(1)} / ${quantile(r.latencies, 0.99).toFixed(1)} |`);
  }
}
