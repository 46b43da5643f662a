/**
 * The bench measures the built package (`dist/*.js`), never sources run
 * through a transpiler. When `dist` is missing or older than any source
 * file, the JavaScript is rebuilt with the project's tsup config (type
 * declarations skipped: they take a minute and the bench does not load them).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENTRIES = ['index.js', 'node.js', 'express.js', 'koa.js', 'fastify.js', 'fetch.js'];
const SOURCES = ['src', 'adapters', 'tsup.config.ts', 'package.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** Whether `dist` lacks an entry or is older than the sources. */
export function distIsStale(root) {
  const built = ENTRIES.map((name) => join(root, 'dist', name));
  if (!built.every(existsSync)) return true;
  const oldestBuild = Math.min(...built.map((path) => statSync(path).mtimeMs));
  return SOURCES.some((source) => newestMtime(join(root, source)) > oldestBuild);
}

/** Rebuilds `dist` JavaScript when stale; resolves with what it did. */
export async function ensureDist(root, { log }) {
  if (!distIsStale(root)) return 'dist is up to date';
  log('building dist/ (tsup, JavaScript only)...');
  const previous = process.cwd();
  process.chdir(root);
  try {
    const { build } = await import('tsup');
    await build({ dts: false, clean: false, silent: true });
  } finally {
    process.chdir(previous);
  }
  return 'dist rebuilt';
}
