/**
 * The peer gateway: Portkey's open-source gateway, installed on demand into
 * the git-ignored `bench/.peers/` (never a dependency of modelgate) and
 * started as its own process.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const PORTKEY_VERSION = '1.15.2';
const PEERS = fileURLToPath(new URL('../.peers/', import.meta.url));
const ENTRY = `${PEERS}node_modules/@portkey-ai/gateway/build/start-server.js`;
const SHIM = fileURLToPath(new URL('../servers/portkey-fetch-shim.mjs', import.meta.url));

/** The installed Portkey version, or undefined. */
export function installedPortkeyVersion() {
  try {
    return JSON.parse(readFileSync(`${PEERS}node_modules/@portkey-ai/gateway/package.json`, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** A port free right now (Portkey takes `--port=<n>` and cannot report a port 0 choice). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Makes sure Portkey is installed; resolves `{ entry }` or `{ error }` (the
 * reason it cannot run, reported in place of its figures).
 */
export async function ensurePortkey({ install }) {
  if (existsSync(ENTRY)) return { entry: ENTRY };
  if (!install) return { error: 'not installed (run without --no-peers to install it into bench/.peers/)' };
  const args = ['install', '--prefix', PEERS, `@portkey-ai/gateway@${PORTKEY_VERSION}`, '--no-save', '--no-audit', '--no-fund', '--loglevel=error'];
  const result = await new Promise((resolve) => {
    execFile('npm', args, { timeout: 180_000 }, (error, _stdout, stderr) => resolve({ error, stderr }));
  });
  if (result.error || !existsSync(ENTRY)) {
    return { error: `npm install @portkey-ai/gateway@${PORTKEY_VERSION} failed: ${String(result.stderr || result.error).trim().split('\n').slice(-3).join(' ')}` };
  }
  return { entry: ENTRY };
}

/** Node arguments that start Portkey on `port`; `shim` preloads the fetch fix its streams need on Node 20. */
export function portkeyArgs(entry, port, { shim }) {
  return [...(shim ? ['--import', SHIM] : []), entry, `--port=${port}`, '--headless'];
}
