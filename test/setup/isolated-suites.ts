/**
 * Which test files need a module graph of their own. Most suites share their
 * worker's loaded modules (vitest `isolate: false`): importing the SDKs and
 * frameworks once per worker instead of once per file halves `npm test`.
 * A file that replaces a module (`vi.mock`, `vi.doMock`) or stubs the
 * environment or a global (`vi.stubEnv`, `vi.stubGlobal`) would leak that into
 * the files after it, so it runs isolated. Found by reading the files, so a
 * new suite that mocks is isolated without anyone listing it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const NEEDS_ISOLATION = /\bvi\.(mock|doMock|stubEnv|stubGlobal)\(/;

/** The test files under `root`/test that must run isolated, as paths relative to `root`, sorted. */
export function isolatedSuites(root: string): string[] {
  const dir = join(root, 'test');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => NEEDS_ISOLATION.test(readFileSync(join(dir, file), 'utf8')))
    .map((file) => relative(root, join(dir, file)))
    .sort();
}
