#!/usr/bin/env node
/**
 * `node bench/affinity-cache.mjs`: what prompt-prefix affinity does for the
 * upstreams' prompt caches. One route of three deployments of a model with
 * reliable caching, each a separate embedded simulator (each with its own
 * prompt cache), serves CONVERSATIONS conversations of TURNS turns each,
 * interleaved (every conversation's first turn, then every second turn...),
 * through the built gateway's core (`gateway.handle()`), once with the
 * default weighted random choice and once with `affinity: true`.
 *
 * Each conversation: a system prompt shared by all (~1,500 tokens), a first
 * message of its own (~2,000 tokens of document), then short turns. The
 * caller marks `cache_control` on the system prompt and on its last two
 * user messages (the incremental pattern the vendor documents), so a turn
 * reads the previous turn's prefix when it lands where that turn went.
 *
 * Prints, per mode, the cache-hit ratio: cache_read_input_tokens over every
 * prompt token (input + cache writes + cache reads), over all turns and
 * over the turns after the first; and how the requests spread.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDist } from './lib/build-dist.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
await ensureDist(ROOT, { log: (message) => process.stderr.write(`${message}\n`) });
const { createGateway } = await import(join(ROOT, 'dist/index.js'));
const { createSimulator } = await import(join(ROOT, 'dist/testing.js'));

const KEY = 'sk-bench-affinity';
const MODEL = 'vendora-sonnet-4-6';
const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 60);
const TURNS = Number(process.env.TURNS ?? 6);
const TARGETS = 3;

const words = (prefix, count) => Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
const SYSTEM = `You answer questions about the attached document. ${words('rule', 1500)}`;
const ephemeral = { type: 'ephemeral' };

/** A simulator's messages face under a name of its own (names tell deployments apart). */
function deployment(index) {
  const face = createSimulator().upstreams.messages;
  return { name: `sim-${index}`, format: 'messages', send: (call) => face.send(call) };
}

/** The request body of one turn: markers on the system prompt and the last two user messages. */
function bodyOf(history) {
  const userIndexes = history.flatMap((message, index) => (message.role === 'user' ? [index] : []));
  const marked = new Set(userIndexes.slice(-2));
  // Text blocks throughout, so that a message reads the same whether it carries a marker or not.
  const messages = history.map((message, index) => ({
    role: message.role,
    content: [{ type: 'text', text: message.content, ...(marked.has(index) ? { cache_control: ephemeral } : {}) }],
  }));
  return { model: MODEL, max_tokens: 64, system: [{ type: 'text', text: SYSTEM, cache_control: ephemeral }], messages };
}

async function send(gateway, body) {
  const rawBody = Buffer.from(JSON.stringify(body));
  const response = await gateway.handle({
    method: 'POST',
    url: '/v1/messages',
    headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'content-length': String(rawBody.byteLength) },
    rawBody,
    signal: new AbortController().signal,
  });
  const text = response.type === 'json' ? JSON.stringify(response.body) : Buffer.from(response.body).toString('utf8');
  if (response.status !== 200) throw new Error(`status ${response.status}: ${text}`);
  return JSON.parse(text);
}

async function run(affinity) {
  const upstreams = Array.from({ length: TARGETS }, (_, index) => deployment(index));
  const gateway = createGateway({
    auth: { keys: [KEY] },
    routes: [{ match: MODEL, targets: upstreams.map((upstream) => ({ upstream })), affinity }],
  });
  const served = new Map(upstreams.map((upstream) => [upstream.name, 0]));
  for (const upstream of upstreams) {
    const send = upstream.send;
    upstream.send = (call) => {
      served.set(upstream.name, served.get(upstream.name) + 1);
      return send(call);
    };
  }
  const histories = Array.from({ length: CONVERSATIONS }, (_, n) => [{ role: 'user', content: `Document ${n}: ${words(`d${n}w`, 2000)}. What is it about?` }]);
  const totals = { all: { read: 0, prompt: 0 }, later: { read: 0, prompt: 0 } };
  for (let turn = 0; turn < TURNS; turn++) {
    for (const history of histories) {
      const answer = await send(gateway, bodyOf(history));
      const { input_tokens: input, cache_creation_input_tokens: written = 0, cache_read_input_tokens: read = 0 } = answer.usage;
      for (const bucket of turn === 0 ? [totals.all] : [totals.all, totals.later]) {
        bucket.read += read;
        bucket.prompt += input + written + read;
      }
      history.push({ role: 'assistant', content: answer.content.map((block) => block.text ?? '').join('') || 'ok' }, { role: 'user', content: `Follow-up ${turn + 1}: and then?` });
    }
  }
  await gateway.close?.();
  return { totals, served: [...served.values()] };
}

const percent = (part, whole) => `${((100 * part) / whole).toFixed(1)} %`;
const rows = [];
for (const [label, affinity] of [['weighted random (default)', false], ['affinity: true', true]]) {
  const { totals, served } = await run(affinity);
  rows.push([label, percent(totals.all.read, totals.all.prompt), percent(totals.later.read, totals.later.prompt), served.join(' / ')]);
}
const head = ['route', 'cache-hit ratio, all turns', `turns 2–${TURNS}`, 'requests per target'];
const widths = head.map((cell, index) => Math.max(cell.length, ...rows.map((row) => row[index].length)));
const line = (cells) => `| ${cells.map((cell, index) => cell.padEnd(widths[index])).join(' | ')} |`;
process.stdout.write(`${CONVERSATIONS} conversations × ${TURNS} turns, ${TARGETS} simulator deployments (separate caches), model ${MODEL}\n\n`);
process.stdout.write(`${line(head)}\n|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|\n${rows.map(line).join('\n')}\n`);
