/**
 * The CPU the limits step adds to one request, measured in one process
 * (no HTTP, no load generator: the noise of a loaded machine on ~150 µs
 * requests would hide a few µs). The same gateway (built `dist/`) answers the
 * ~1 KB chat request from an in-process upstream, with and without
 * `limits`; configurations are interleaved in rounds and the lowest CPU per
 * request of each is kept. For Redis, the CPU is this process's (gateway +
 * client), and Redis runs elsewhere; the script calls Redis ran per request
 * are counted from its `INFO commandstats` (at most one round trip per request
 * is the aim).
 *
 * Run as `node bench/lib/limits-cost.mjs <redis-url|-> [seconds-per-round]`:
 * prints one JSON line.
 */
import { performance } from 'node:perf_hooks';
import { smallChat } from './payloads.mjs';

const [redisUrl = '-', secondsArg = '0.5'] = process.argv.slice(2);
const SECONDS = Number(secondsArg);
const ROUNDS = 3;
const KEY = 'sk-bench';
const { createGateway, memoryLimitStore, redisLimitStore } = await import('../../dist/index.js');

const answer = Buffer.from(JSON.stringify({
  id: 'chatcmpl-x', object: 'chat.completion', created: 1, model: 'gpt-bench',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 200, completion_tokens: 3, total_tokens: 203 },
}));
const upstream = {
  name: 'in-process', format: 'chat',
  async send() {
    return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(answer.length) }, body: (async function* () { yield answer; })() };
  },
};

const RATE = { requests: { limit: 1e12 }, concurrent: 1e9 };
const WITH_TOKENS = { ...RATE, tokens: { limit: 1e15 } };

let redisClient;
const configs = [
  ['none', undefined],
  ['memory: requests + concurrent', { rules: [RATE] }],
  ['memory: requests + tokens + concurrent', { rules: [WITH_TOKENS] }],
];
if (redisUrl !== '-') {
  const { Redis } = await import('ioredis');
  redisClient = new Redis(redisUrl);
  configs.push(['redis: requests + concurrent', { rules: [RATE], store: redisLimitStore({ client: redisClient, prefix: `bench:${Date.now()}:` }) }]);
  configs.push(['redis: requests + tokens + concurrent', { rules: [WITH_TOKENS], store: redisLimitStore({ client: redisClient, prefix: `bench:${Date.now()}t:` }) }]);
}
void memoryLimitStore;

const rawBody = Buffer.from(smallChat('gpt-bench'));
const body = JSON.parse(rawBody.toString());
// A signal per request, as the adapters make one per request.
const request = () => ({
  method: 'POST', url: '/v1/chat/completions',
  headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': String(rawBody.length) },
  body, rawBody, signal: new AbortController().signal,
});

/** Script calls Redis has run so far (EVALSHA + EVAL). */
async function scriptCalls() {
  const stats = await redisClient.info('commandstats');
  let calls = 0;
  for (const match of stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(match[1]);
  return calls;
}

/** Runs requests 16 at a time for `seconds`; returns CPU µs per request, wall requests/s and (Redis) script calls per request. */
async function measure(gateway, seconds, redis) {
  let done = 0;
  const calls0 = redis ? await scriptCalls() : 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const response = await gateway.handle(request());
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  // Settles still queued go out at the end of this turn: wait for them before counting.
  if (redis) await new Promise((resolve) => setTimeout(resolve, 20));
  const redisCallsPerReq = redis ? ((await scriptCalls()) - calls0) / done : undefined;
  return { cpuUsPerReq: (cpu.user + cpu.system) / done, rps: (done / wall) * 1000, redisCallsPerReq };
}

const gateways = configs.map(([name, limits]) => [name, createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream }], ...(limits ? { limits } : {}) }), limits?.store !== undefined]);
for (const [, gateway, redis] of gateways) await measure(gateway, SECONDS / 2, redis);
const best = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, gateway, redis] of round % 2 === 0 ? gateways : [...gateways].reverse()) {
    const figures = await measure(gateway, SECONDS, redis);
    const previous = best.get(name);
    if (!previous || figures.cpuUsPerReq < previous.cpuUsPerReq) best.set(name, figures);
  }
}
const base = best.get('none');
const rows = [...best].map(([name, figures]) => ({
  config: name,
  cpuUsPerReq: figures.cpuUsPerReq,
  addedCpuUs: figures.cpuUsPerReq - base.cpuUsPerReq,
  rps: figures.rps,
  rpsXNone: figures.rps / base.rps,
  ...(figures.redisCallsPerReq === undefined ? {} : { redisCallsPerReq: figures.redisCallsPerReq }),
}));
redisClient?.disconnect();
process.stdout.write(`${JSON.stringify(rows)}\n`);
