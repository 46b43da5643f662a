/**
 * The import graph of the project's TypeScript: which file imports which,
 * counting every static `import` and `export … from` of a relative path,
 * type-only ones included (they still tie the two files' types together),
 * and the strongly connected components (import circles) of that graph.
 * Parsed with the TypeScript compiler, so imports in comments, strings and
 * doc examples do not count.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** Files (relative to the root, `/`-separated) to the files they import. */
export type ImportGraph = Map<string, string[]>;

/**
 * The relative module specifiers a source file imports or re-exports, in
 * order. Dynamic `import()` is left out: it is how a module loads another
 * lazily (optional peers, the simulator), after both are loaded.
 */
export function relativeSpecifiers(source: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of file.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) specifier = statement.moduleSpecifier;
    else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
      specifier = statement.moduleReference.expression;
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) found.push(specifier.text);
  }
  return found;
}

/** Every `.ts` file under `dir` (relative to `root`), sorted. */
function tsFiles(root: string, dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) files.push(...tsFiles(root, path));
    else if (entry.name.endsWith('.ts')) files.push(path);
  }
  return files.sort();
}

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile();

/**
 * The file a relative specifier names, as the project's `Bundler`
 * resolution finds it: `./x.js` is `x.ts`, `./x` is `x.ts` or
 * `x/index.ts`; a file that exists as written (`.json`) is itself.
 */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  const base = join(root, dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base];
  const hit = candidates.find(isFile);
  return hit === undefined ? undefined : relative(root, hit).split(sep).join('/');
}

export interface ScannedGraph {
  graph: ImportGraph;
  /** `from → specifier` of imports that name no file. */
  unresolved: string[];
}

/** The import graph of every `.ts` file under `dirs` (relative to `root`); imports of other files (`.json`) are not edges. */
export function scanImportGraph(root: string, dirs: string[]): ScannedGraph {
  const graph: ImportGraph = new Map();
  const unresolved: string[] = [];
  for (const file of dirs.flatMap((dir) => tsFiles(root, dir))) {
    const targets = new Set<string>();
    for (const specifier of relativeSpecifiers(readFileSync(join(root, file), 'utf8'), file)) {
      const target = resolveSpecifier(root, file, specifier);
      if (target === undefined) unresolved.push(`${file} → ${specifier}`);
      else if (target.endsWith('.ts')) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return { graph, unresolved };
}

/**
 * The graph's import circles: its strongly connected components of more
 * than one file, plus files that import themselves (Tarjan's algorithm).
 * Each component's files are sorted; components by their first file.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * One shortest circle through the component's first file (`a → b → a`),
 * found by a breadth-first search inside the component: the imports to
 * look at first when breaking it.
 */
export function shortestCircle(graph: ImportGraph, component: string[]): string[] {
  const start = component[0]!;
  const members = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const target of graph.get(next) ?? []) {
      if (target === start) {
        const path = [start];
        for (let at: string | undefined = next; at !== start && at !== undefined; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (members.has(target) && !cameFrom.has(target)) {
        cameFrom.set(target, next);
        queue.push(target);
      }
    }
  }
  return component;
}
