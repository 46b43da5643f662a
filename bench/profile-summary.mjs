#!/usr/bin/env node
/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`, e.g.
 * `npm run bench -- --full --table responses --only responses-stream-5000-translated --cpu-prof`):
 * the functions with the most self time and the most total (inclusive)
 * time, and self time per file, as shares of the non-idle samples.
 *
 * Usage: node bench/profile-summary.mjs <file.cpuprofile> [--top 25]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
const top = Number(values.top);
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top 25]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
for (const [i, id] of profile.samples.entries()) {
  const dt = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
  self.set(id, (self.get(id) ?? 0) + dt);
}
const IDLE = new Set(['(idle)', '(program)']);
const shortUrl = (url) => url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'nm:').replace(/^.*\/dist\//, 'dist:').replace(/^node:/, 'node:');
const keyOf = (node) => {
  const f = node.callFrame;
  return `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
};

// Parent links, for inclusive time (each function counted once per stack).
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

let busy = 0;
let gc = 0;
const selfByKey = new Map();
const selfByFile = new Map();
const totalByKey = new Map();
for (const [id, time] of self) {
  const node = byId.get(id);
  const name = node.callFrame.functionName;
  if (IDLE.has(name)) continue;
  busy += time;
  if (name === '(garbage collector)') gc += time;
  const key = keyOf(node);
  selfByKey.set(key, (selfByKey.get(key) ?? 0) + time);
  const fileKey = shortUrl(node.callFrame.url) || `(${name.replace(/[()]/g, '')})`;
  selfByFile.set(fileKey, (selfByFile.get(fileKey) ?? 0) + time);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const k = keyOf(byId.get(at));
    if (seen.has(k)) continue;
    seen.add(k);
    totalByKey.set(k, (totalByKey.get(k) ?? 0) + time);
  }
}

const pct = (t) => `${((100 * t) / busy).toFixed(1).padStart(5)}%`;
const list = (title, map, n) => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) process.stdout.write(`  ${pct(time)}  ${key}\n`);
};
process.stdout.write(`${file}\nbusy ${(busy / 1000).toFixed(0)} ms (GC ${pct(gc).trim()})\n`);
list('self time by file', selfByFile, 15);
list('self time by function', selfByKey, top);
list('total (inclusive) time by function', totalByKey, top);
