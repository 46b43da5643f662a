/**
 * No import circles in `src/` and `adapters/`: every dependency points one
 * way, so each module can be read, tested and loaded after the ones it
 * needs. Type-only imports count: a circle of types is still two files that
 * cannot change apart. The usual fix is to move the shared type (an option
 * type, a small interface) into a file of its own that both sides import.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type ImportGraph, importCycles, relativeSpecifiers, scanImportGraph, shortestCircle } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('import graph (on made-up sources)', () => {
  it('reads every static relative import and re-export, type-only ones too, and nothing else', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "import { type C, c } from './c.js';",
      "import './side-effect.js';",
      "import {\n  d,\n  e,\n} from './multi-line.js';",
      "export { f } from './f.js';",
      "export type { G } from './g.js';",
      "export * from './star.js';",
      "import h = require('./h.js');",
      "import { z } from 'zod';",
      "// import { x } from './commented-out.js';",
      "/** @example import { y } from './in-doc.js'; */",
      "const text = \"import { w } from './in-string.js'\";",
      "const lazy = () => import('./lazy.js');",
    ].join('\n');
    expect(relativeSpecifiers(source)).toEqual([
      './a.js',
      '../b.js',
      './c.js',
      './side-effect.js',
      './multi-line.js',
      './f.js',
      './g.js',
      './star.js',
      './h.js',
    ]);
  });

  it('finds each circle once, with its files, and none where the imports point one way', () => {
    const graph: ImportGraph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['e']],
      ['e', ['d', 'f']],
      ['f', []],
      ['g', ['g']],
      ['h', ['a', 'f']],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c'], ['d', 'e'], ['g']]);
    expect(importCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  it('names a shortest circle through a component', () => {
    const graph: ImportGraph = new Map([
      ['a', ['b', 'x']],
      ['b', ['c']],
      ['c', ['a']],
      ['x', ['a']],
    ]);
    expect(shortestCircle(graph, ['a', 'b', 'c', 'x'])).toEqual(['a', 'x', 'a']);
    expect(shortestCircle(new Map([['g', ['g']]]), ['g'])).toEqual(['g', 'g']);
  });

  describe('on files', () => {
    const root = mkdtempSync(join(tmpdir(), 'import-graph-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };

    it('resolves `.js`, extensionless and folder imports, and finds a circle of type-only imports across folders', () => {
      write('lib/options/widget-schema.ts', "import type { WidgetOptions } from '../widgets/widget.js';\nexport const schema = 1;\n");
      write('lib/widgets/widget.ts', "import { schema } from '../options/widget-schema';\nexport interface WidgetOptions { size: number }\n");
      write('lib/widgets/index.ts', "export * from './widget.js';\n");
      write('lib/main.ts', "import './widgets';\nimport data from './data.json';\n");
      write('lib/data.json', '{}');
      write('glue/adapter.ts', "import '../lib/main.js';\nimport { gone } from '../lib/missing.js';\n");

      const { graph, unresolved } = scanImportGraph(root, ['lib', 'glue']);
      expect(Object.fromEntries(graph)).toEqual({
        'glue/adapter.ts': ['lib/main.ts'],
        'lib/main.ts': ['lib/widgets/index.ts'],
        'lib/options/widget-schema.ts': ['lib/widgets/widget.ts'],
        'lib/widgets/index.ts': ['lib/widgets/widget.ts'],
        'lib/widgets/widget.ts': ['lib/options/widget-schema.ts'],
      });
      expect(unresolved).toEqual(['glue/adapter.ts → ../lib/missing.js']);
      expect(importCycles(graph)).toEqual([['lib/options/widget-schema.ts', 'lib/widgets/widget.ts']]);
    });
  });
});

describe('import graph of src/ and adapters/', () => {
  const { graph, unresolved } = scanImportGraph(ROOT, ['src', 'adapters']);

  it('is read whole: every file, every import resolved', () => {
    const files = [...graph.keys()];
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    // Lower bounds well under today's size (about 300 files, over 1000 imports): a scan that reads nothing fails here.
    expect(files.length).toBeGreaterThan(200);
    expect(edges).toBeGreaterThan(files.length * 2);
    expect(files).toContain('adapters/express.ts');
    expect(graph.get('src/index.ts')).toContain('src/errors.ts');
    expect(unresolved).toEqual([]);
  });

  it('has no import circles', () => {
    const circles = importCycles(graph).map(
      (component) => `${component.length} files: ${component.join(', ')}\n    e.g. ${shortestCircle(graph, component).join(' → ')}`,
    );
    expect(circles, `Import circles (move the shared type into a file both sides import):\n  ${circles.join('\n  ')}`).toEqual([]);
  });
});
