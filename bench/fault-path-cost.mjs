#!/usr/bin/env node
/**
 * `node bench/fault-path-cost.mjs`: what the fault-path checks (the request
 * deadline, the complete-answer check) cost per request, measured in one process on the built package, as CPU
 * time (user + system) per request of the gateway core (`gateway.handle()`
 * plus draining the answer) against an in-memory upstream, so that network
 * and load generator noise stay out:
 *
 *   json-1k      a relayed non-streamed chat answer of ~450 bytes (read whole, checked, one write)
 *   json-64k     the same padded to 64 KiB
 *   stream-50    a relayed chat stream of 50 events in one chunk each
 *
 * Each with the request deadline on (default) and off (`requestTimeoutMs: 0`),
 * and `JSON.parse` of the answer alone (the completeness check's main
 * cost). Rounds are interleaved; each figure is the median of its rounds.
 * Also runs on older builds (their options simply ignore the deadline).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDist } from './lib/build-dist.mjs';
import { CHAT_JSON, CHAT_STREAM } from './lib/wire-bodies.mjs';
import { cannedUpstream, chatStreamChunks, cpuPerCall, drain, median } from './lib/in-process.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
await ensureDist(ROOT, { log: (message) => process.stderr.write(`${message}\n`) });
const { createGateway } = await import(join(ROOT, 'dist/index.js'));

const KEY = 'sk-bench';
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const PER_ROUND = Number(process.env.PER_ROUND ?? 3000);

const padded = (() => {
  const json = JSON.parse(CHAT_JSON.toString('utf8'));
  json.choices[0].message.content = 'x'.repeat(64 * 1024 - CHAT_JSON.byteLength);
  return Buffer.from(JSON.stringify(json));
})();
const streamChunks = chatStreamChunks(CHAT_STREAM);

function upstream(kind) {
  const bytes = kind === 'json-64k' ? padded : CHAT_JSON;
  return cannedUpstream({ name: 'memory', format: 'chat', stream: kind === 'stream-50', chunks: streamChunks, bytes });
}

function gatewayFor(kind, deadline) {
  return createGateway({
    auth: { keys: [KEY] },
    routes: [{ match: '*', upstream: upstream(kind) }],
    ...(deadline ? {} : { requestTimeoutMs: 0 }),
  });
}

const requestFor = (kind) => {
  const rawBody = Buffer.from(JSON.stringify({ model: 'gpt-bench', stream: kind === 'stream-50', messages: [{ role: 'user', content: 'Hi' }] }));
  return () => ({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': String(rawBody.byteLength) },
    rawBody,
    signal: new AbortController().signal,
  });
};


const cases = [];
for (const kind of ['json-1k', 'json-64k', 'stream-50']) {
  const makeRequest = requestFor(kind);
  for (const deadline of [true, false]) {
    const gateway = gatewayFor(kind, deadline);
    cases.push({ name: `${kind}, deadline ${deadline ? 'on' : 'off'}`, kind, deadline, run: async () => drain(await gateway.handle(makeRequest())) });
  }
}
const text1k = CHAT_JSON.toString('utf8');
const text64k = padded.toString('utf8');
const decoder = new TextDecoder();
cases.push({ name: 'JSON.parse of the json-1k answer', run: async () => JSON.parse(decoder.decode(CHAT_JSON)), parseOf: 'json-1k' });
cases.push({ name: 'JSON.parse of the json-64k answer', run: async () => JSON.parse(decoder.decode(padded)), parseOf: 'json-64k' });
void text1k; void text64k;

for (const item of cases) await cpuPerCall(PER_ROUND, item.run); // warm-up
const samples = new Map(cases.map((item) => [item, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const item of cases) samples.get(item).push(await cpuPerCall(PER_ROUND, item.run));
}

const perCall = new Map(cases.map((item) => [item.name, median(samples.get(item))]));
const rows = cases.map((item) => {
  const value = perCall.get(item.name);
  let ratio = '';
  if (item.deadline === true) ratio = `deadline: +${(value - perCall.get(`${item.kind}, deadline off`)).toFixed(2)} µs (${((value / perCall.get(`${item.kind}, deadline off`) - 1) * 100).toFixed(1)} %)`;
  if (item.parseOf) ratio = `${((value / perCall.get(`${item.parseOf}, deadline on`)) * 100).toFixed(1)} % of a ${item.parseOf} request`;
  return `| ${item.name.padEnd(34)} | ${value.toFixed(2).padStart(8)} | ${ratio} |`;
});
console.log(`fault-path cost, CPU µs per call (median of ${ROUNDS} rounds × ${PER_ROUND}), node ${process.version}, load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| case                               |   µs/call | |');
console.log('| ---------------------------------- | -------: | --- |');
for (const row of rows) console.log(row);
