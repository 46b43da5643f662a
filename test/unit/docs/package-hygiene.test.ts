/**
 * What a user of the package meets first: install lines that run as they
 * are, a LICENSE in the tarball, and a packed package.json without the
 * repository's scripts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codeBlocks, readDoc, ROOT } from './markdown.js';

const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { name: string; version: string; license: string; scripts: Record<string, string> };
const shellBlocks = codeBlocks('README.md', readDoc('README.md')).filter((block) => block.lang === 'sh');

describe('README install lines', () => {
  it('hold no placeholders to fill in', () => {
    for (const block of shellBlocks) expect(block.code, `README.md:${block.line}`).not.toMatch(/<[a-z-]+>|OWNER|REPO\b/);
  });

  it('name the tarball npm pack writes for this version', () => {
    const tarball = `${manifest.name}-${manifest.version}.tgz`;
    const named = shellBlocks.flatMap((block) => [...block.code.matchAll(/\bmodelgate-[\w.-]+\.tgz\b/g)].map((match) => match[0]));
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([tarball]));
  });

  it('carry no measured figures that no script keeps current', () => {
    expect(readDoc('README.md')).not.toMatch(/\b\d+ files\b|took \d+(\.\d+)? s\b/);
  });
});

describe('the packed package', () => {
  it('is MIT, with the LICENSE npm packs', () => {
    expect(manifest.license).toBe('MIT');
    const license = readFileSync(`${ROOT}LICENSE`, 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 modelgate contributors\n/);
    // --ignore-scripts: only the file list, without the build and the manifest swap of prepack.
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as [{ files: { path: string }[] }];
    const paths = packed.files.map((file) => file.path);
    expect(paths).toContain('LICENSE');
    expect(paths).toContain('package.json');
    expect(paths.filter((path) => !/^(dist\/|LICENSE$|README\.md$|package\.json$)/.test(path))).toEqual([]);
  });

  it('packs package.json without scripts, and builds before it swaps the manifest', async () => {
    const { packedManifest } = (await import(`${ROOT}scripts/pack-manifest.mjs`)) as { packedManifest: (value: object) => Record<string, unknown> };
    const packed = packedManifest(manifest);
    expect(packed).not.toHaveProperty('scripts');
    expect(packed).toMatchObject({ name: manifest.name, version: manifest.version, license: 'MIT' });
    expect(manifest.scripts.prepack).toMatch(/^tsup\b.*&& node scripts\/pack-manifest\.mjs strip$/);
    expect(manifest.scripts.postpack).toBe('node scripts/pack-manifest.mjs restore');
  });
});
