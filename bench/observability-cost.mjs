#!/usr/bin/env node
/**
 * `node bench/observability-cost.mjs`: what the gateway's observability
 * costs per request, measured in one process on the built
 * package, as CPU time (user + system) per request of the gateway core
 * (`gateway.handle()` plus draining the answer) against an in-memory
 * upstream, so that network and load generator noise stay out.
 *
 * The OpenTelemetry Node SDK is started once, as in bench/servers/observability.mjs
 * (batch span processor, periodic metric reader, exporters that drop), so
 * every gateway pays the SDK's async context tracking; they differ in options:
 *
 *   off    no observability option (what the SDK alone costs)
 *   noop   `openTelemetry` with the API's no-op tracer and meter as providers:
 *          the gateway's own OpenTelemetry work, none of the SDK's
 *   otel   `openTelemetry: true`
 *   prom   `prometheus: { registry }`
 *   full   both
 *
 * Cases: a non-streamed chat answer, a non-streamed messages answer, a chat
 * stream of 50 events. Rounds are interleaved (off, otel, prom, full, off, ...);
 * each figure is the median of its rounds. ROUNDS and PER_ROUND override the
 * defaults; CASES=chat,messages picks cases, MODES=off,full modes; DIST=<dir> another build; PROFILE_ONLY=full runs just one mode
 * (for `node --cpu-prof`).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { ensureDist } from './lib/build-dist.mjs';
import { CHAT_JSON, CHAT_STREAM, MESSAGES_JSON } from './lib/wire-bodies.mjs';
import { smallChat, smallMessages } from './lib/payloads.mjs';
import { cannedUpstream, chatStreamChunks, cpuPerCall, drain, median } from './lib/in-process.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// DIST=<dir> measures another build (e.g. a copy of an older commit's dist/) for A/B runs.
const DIST = process.env.DIST ?? join(ROOT, 'dist');
if (!process.env.DIST) await ensureDist(ROOT, { log: (message) => process.stderr.write(`${message}\n`) });
const { createGateway } = await import(join(DIST, 'index.js'));
const { observabilityOptions } = await import('./servers/observability.mjs');

const KEY = 'sk-bench';
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const PER_ROUND = Number(process.env.PER_ROUND ?? 2000);
const CASES = (process.env.CASES ?? 'chat,messages,stream-50').split(',');
const ONLY = process.env.PROFILE_ONLY;
const ONLY_MODES = process.env.MODES?.split(',');

const streamChunks = chatStreamChunks(CHAT_STREAM);
const SERVER = { address: '127.0.0.1', port: 8080 };

function upstream(kind) {
  const format = kind === 'messages' ? 'messages' : 'chat';
  const bytes = kind === 'messages' ? MESSAGES_JSON : CHAT_JSON;
  return cannedUpstream({ name: `memory-${format}`, format, server: SERVER, stream: kind === 'stream-50', chunks: streamChunks, bytes });
}

function requestFor(kind) {
  const model = kind === 'messages' ? 'vendora-sonnet-4-6' : 'gpt-bench';
  const text = kind === 'messages' ? smallMessages(model) : smallChat(model, { stream: kind === 'stream-50' });
  const rawBody = Buffer.from(typeof text === 'string' ? text : JSON.stringify(text));
  const auth = kind === 'messages' ? { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } : { authorization: `Bearer ${KEY}` };
  return () => ({
    method: 'POST',
    url: kind === 'messages' ? '/v1/messages' : '/v1/chat/completions',
    headers: { ...auth, 'content-type': 'application/json', 'content-length': String(rawBody.byteLength) },
    rawBody,
    signal: new AbortController().signal,
  });
}


const sdk = await observabilityOptions('full');
const { registry } = sdk.options.prometheus;
const api = (await import('node:module')).createRequire(join(ROOT, 'package.json'))('@opentelemetry/api');
const noopMeter = api.createNoopMeter();
// ALS=1: enables the SDK's async context tracking (AsyncLocalStorage) from the start, as an app's first
// `context.with` does (HTTP instrumentation per request; the SDK's own exports at their first run).
if (process.env.ALS === '1') api.context.with(api.context.active(), () => {});
const MODES = {
  off: {},
  // The gateway's own OpenTelemetry work with the API's no-op tracer and meter: what is ours, not the SDK's.
  noop: { openTelemetry: { tracerProvider: new api.ProxyTracerProvider(), meterProvider: { getMeter: () => noopMeter } } },
  otel: { openTelemetry: true },
  prom: { prometheus: { registry, prefix: 'p1_' } },
  full: { openTelemetry: true, prometheus: { registry, prefix: 'p2_' } },
};
const modes = ONLY ? [ONLY] : ONLY_MODES ?? Object.keys(MODES);

const cases = [];
for (const kind of CASES) {
  const makeRequest = requestFor(kind);
  for (const mode of modes) {
    const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: kind === 'messages' ? 'vendora-sonnet-4-6' : 'gpt-bench', upstream: upstream(kind) }], ...MODES[mode] });
    cases.push({ kind, mode, run: async () => drain(await gateway.handle(makeRequest())) });
  }
}

for (const item of cases) await cpuPerCall(PER_ROUND, item.run); // warm-up
const samples = new Map(cases.map((item) => [item, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const item of cases) samples.get(item).push(await cpuPerCall(PER_ROUND, item.run));
}

console.log(`observability cost, CPU µs per request (median of ${ROUNDS} rounds × ${PER_ROUND}; min-max), node ${process.version}, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| case      | mode |  µs/req | min-max       | vs off | min vs off |');
console.log('| --------- | ---- | ------: | ------------- | -----: | ---------: |');
for (const item of cases) {
  const values = samples.get(item);
  const value = median(values);
  const off = cases.find((other) => other.kind === item.kind && other.mode === 'off');
  const delta = off && off !== item ? `+${(value - median(samples.get(off))).toFixed(1)}` : '';
  // Contention only ever adds CPU time, so the fastest round is the least disturbed one.
  const minDelta = off && off !== item ? `+${(Math.min(...values) - Math.min(...samples.get(off))).toFixed(1)}` : '';
  console.log(`| ${item.kind.padEnd(9)} | ${item.mode.padEnd(4)} | ${value.toFixed(1).padStart(7)} | ${`${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`.padEnd(13)} | ${delta.padStart(6)} | ${minDelta.padStart(10)} |`);
}
await sdk.close();
