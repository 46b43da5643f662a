#!/usr/bin/env node
/**
 * The package.json that `npm pack` and `npm publish` put in the tarball:
 * without `scripts`. Every script is for working on modelgate (build, test,
 * examples, benchmarks); in an installed package they do nothing but make
 * tools flag a `prepare` script.
 *
 * npm packs package.json from disk and has no option to leave a field out,
 * so `prepack` runs `strip` (the original is kept beside it) and `postpack`
 * runs `restore`. A pack that fails in between leaves the copy: the next
 * `strip` or `restore` puts the original back first.
 *
 * Installs from git never run `prepack` (npm runs `prepare` there), so they
 * keep building `dist/` with `prepare`.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Fields of package.json that only matter in a checkout. */
export const CHECKOUT_ONLY_FIELDS = ['scripts'];

/** The manifest as packed: `manifest` without the checkout-only fields. */
export function packedManifest(manifest) {
  const packed = { ...manifest };
  for (const field of CHECKOUT_ONLY_FIELDS) delete packed[field];
  return packed;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const manifestFile = join(root, 'package.json');
/** Where the original waits during a pack (ignored by git, outside `files`). */
const keptFile = join(root, 'package.json.unpacked');

function restore() {
  if (existsSync(keptFile)) renameSync(keptFile, manifestFile);
}

function strip() {
  restore();
  const text = readFileSync(manifestFile, 'utf8');
  writeFileSync(keptFile, text);
  writeFileSync(manifestFile, `${JSON.stringify(packedManifest(JSON.parse(text)), null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const command = process.argv[2];
  if (command === 'strip') strip();
  else if (command === 'restore') restore();
  else {
    console.error('usage: node scripts/pack-manifest.mjs strip|restore');
    process.exit(2);
  }
}
