#!/usr/bin/env node
/**
 * The package as users get it, checked in CI (`.ci/run`): build, `publint`,
 * `attw --pack` (every subpath: ESM, CJS and their types under node16 and
 * bundler resolution; node10, which has no `exports`, is out of scope),
 * then `npm pack` and a fresh app that installs the tarball with Fastify,
 * Hono and @hono/node-server and runs `package-probe.cjs` with `import()`
 * and with `require()`, at the versions the tests use. The install prefers
 * npm's cache (filled by `npm ci`) but may ask the registry for metadata.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (file, args, cwd = root) => {
  console.log(`$ ${[file, ...args].join(' ')}`);
  execFileSync(file, args, { cwd, stdio: 'inherit' });
};
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const work = mkdtempSync(join(tmpdir(), 'modelgate-package-'));
try {
  run(bin('tsup'), ['--silent']);
  run(bin('publint'), ['--strict']);
  run(bin('attw'), ['--pack', '.', '--profile', 'node16']);

  run(npm, ['pack', '--silent', '--pack-destination', work]);
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack made no tarball');

  const app = join(work, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, version: '1.0.0' }));
  copyFileSync(join(root, 'scripts', 'package-probe.cjs'), join(app, 'probe.cjs'));
  // The versions the test suite ran against (from the lockfile's install).
  const version = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  const peers = ['fastify', 'hono', '@hono/node-server'].map((name) => `${name}@${version(name)}`);
  run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, tarball), ...peers], app);
  for (const format of ['esm', 'cjs']) run(process.execPath, ['probe.cjs', format], app);
  console.log('package check passed');
} finally {
  rmSync(work, { recursive: true, force: true });
}
