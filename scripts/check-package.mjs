#!/usr/bin/env node
/**
 * The package as users get it, checked in CI (`.ci/run`). A fresh clone of
 * the committed tree (HEAD; uncommitted changes are not in it), with no
 * build, is packed: `npm pack` must build `dist/` itself (the `prepack`
 * script). On that tarball: `publint`, `attw` (every subpath: ESM, CJS and
 * their types under node16 and bundler resolution; node10, which has no
 * `exports`, is out of scope), then a fresh app that installs it:
 *
 * 1. with none of the optional peers, `tsc` (`strict`, `skipLibCheck: false`,
 *    node16 and bundler resolution; the repo's TypeScript 5 and the current
 *    major) over `package-types/core.*` (the framework-free subpaths);
 * 2. with the frameworks added (Express, Koa, Fastify, Hono, and their
 *    types), still without OpenTelemetry, prom-client or a Redis client, `tsc`
 *    over `package-types/frameworks.*` (every subpath), and
 *    `package-probe.cjs` with `import()` and with `require()`.
 *
 * `--git` also installs the clone as a git dependency
 * (`npm install git+file://…`), which runs `prepare` after installing every
 * devDependency: a few minutes, so not in CI.
 *
 * The clone reuses this checkout's node_modules (a symlink) and the app
 * installs prefer npm's cache (filled by `npm ci`), at the versions the tests
 * use; they may ask the registry for metadata.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The current TypeScript major, checked beside the repo's own TypeScript 5. */
const CURRENT_TYPESCRIPT = 'typescript@^7.0.2';

const root = fileURLToPath(new URL('..', import.meta.url));
const here = join(root, 'scripts');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (file, args, cwd = root) => {
  console.log(`$ ${[file, ...args].join(' ')}${cwd === root ? '' : `   (in ${cwd})`}`);
  execFileSync(file, args, { cwd, stdio: 'inherit' });
};
const install = (cwd, specs) => run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...specs], cwd);
const versionIn = (dir, name) => JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
/** `name@version` as the test suite ran it (from the lockfile's install). */
const pinned = (name) => `${name}@${versionIn(root, name)}`;
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
const timed = (label, step) => {
  const started = Date.now();
  step();
  console.log(`(${label}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
};

function newApp(dir) {
  mkdirSync(dir);
  writeJson(join(dir, 'package.json'), { name: 'fresh-app', private: true, version: '1.0.0', type: 'module' });
}

const RESOLUTION = {
  node16: { module: 'node16', moduleResolution: 'node16' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
};

/**
 * `tsc` over `files` (copied from package-types/) with `strict` and
 * `skipLibCheck: false`, with each compiler. Fails on any error in
 * modelgate's declarations or the app's files; errors inside other packages'
 * declarations (which an app with `skipLibCheck: false` sees with or without
 * modelgate) are printed, not counted.
 */
function typecheck(app, compilers, name, resolution, files) {
  for (const file of files) copyFileSync(join(here, 'package-types', file), join(app, file));
  const options = { strict: true, skipLibCheck: false, noEmit: true, target: 'ES2022', lib: ['ES2023', 'DOM'], types: ['node'], ...RESOLUTION[resolution] };
  writeJson(join(app, `tsconfig.${name}.json`), { compilerOptions: options, files });
  for (const [label, tsc] of compilers) {
    const args = [tsc, '-p', `tsconfig.${name}.json`, '--pretty', 'false'];
    console.log(`$ ${label}: tsc -p tsconfig.${name}.json   (${resolution}: ${files.join(', ')})`);
    const started = Date.now();
    let output = '';
    try {
      execFileSync(process.execPath, args, { cwd: app, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
      if (!output.includes(': error TS')) throw error;
    }
    const errors = output.split(/\n(?=\S)/).filter((entry) => entry.includes(': error TS'));
    const others = errors.filter((entry) => entry.startsWith('node_modules/') && !entry.startsWith('node_modules/modelgate/'));
    const ours = errors.filter((entry) => !others.includes(entry));
    if (others.length > 0) console.log(`  other packages' declarations (not counted):\n  ${others.join('\n  ')}`);
    if (ours.length > 0) throw new Error(`${label} (${name}): ${ours.length} error(s):\n${ours.join('\n')}`);
    console.log(`  ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim();
if (dirty) console.log(`note: uncommitted changes are not checked (the clone is HEAD, ${head.slice(0, 10)}):\n${dirty}`);

const work = mkdtempSync(join(tmpdir(), 'modelgate-package-'));
try {
  const clone = join(work, 'clone');
  run('git', ['clone', '--quiet', '--no-checkout', root, clone]);
  run('git', ['checkout', '--quiet', head], clone);
  if (existsSync(join(clone, 'dist'))) throw new Error('the fresh clone already has dist/');
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');

  timed('npm pack in the fresh clone (prepack builds)', () => run(npm, ['pack', '--silent', '--pack-destination', work], clone));
  const tarball = join(work, readdirSync(work).find((name) => name.endsWith('.tgz')) ?? '');
  if (!tarball.endsWith('.tgz')) throw new Error('npm pack made no tarball');
  run(bin('publint'), ['run', tarball, '--strict']);
  run(bin('attw'), [tarball, '--profile', 'node16']);

  const currentTs = join(work, 'typescript-current');
  newApp(currentTs);
  install(currentTs, [CURRENT_TYPESCRIPT]);
  const compilers = [root, currentTs].map((dir) => [`TypeScript ${versionIn(dir, 'typescript')}`, join(dir, 'node_modules', 'typescript', 'bin', 'tsc')]);

  const app = join(work, 'app');
  newApp(app);
  install(app, [tarball, pinned('@types/node')]);
  typecheck(app, compilers, 'core-node16', 'node16', ['core.mts', 'core.cts']);
  typecheck(app, compilers, 'core-bundler', 'bundler', ['core.mts']);

  install(app, ['express', '@types/express', 'koa', '@types/koa', 'fastify', 'hono', '@hono/node-server'].map(pinned));
  // One program per format: both would augment Fastify's instance, each with its own declaration of the same type.
  typecheck(app, compilers, 'frameworks-esm', 'node16', ['frameworks.mts']);
  typecheck(app, compilers, 'frameworks-cjs', 'node16', ['frameworks.cts']);
  copyFileSync(join(here, 'package-probe.cjs'), join(app, 'probe.cjs'));
  for (const format of ['esm', 'cjs']) run(process.execPath, ['probe.cjs', format], app);

  if (process.argv.includes('--git')) {
    const gitApp = join(work, 'git-app');
    newApp(gitApp);
    timed('npm install git+file:// (devDependencies, prepare)', () => install(gitApp, [`git+file://${clone}#${head}`]));
    copyFileSync(join(here, 'package-probe.cjs'), join(gitApp, 'probe.cjs'));
    for (const format of ['esm', 'cjs']) run(process.execPath, ['probe.cjs', format, '--imports-only'], gitApp);
  }
  console.log('package check passed');
} finally {
  rmSync(work, { recursive: true, force: true });
}
