/**
 * Every `ts` and `js` snippet of the README, docs/ and the examples' README
 * type-checks against the source, as a module of its own, in one TypeScript
 * program (tsconfig.json's options and `paths`, so `modelgate/express` is
 * adapters/express.ts). A failure names the Markdown file and line. Snippets
 * marked `run` are also run. Markers: see snippet-markers.ts.
 */
import assert from 'node:assert/strict';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as modelgate from 'modelgate';
import * as modelgateTesting from 'modelgate/testing';
import { codeBlocks, docFiles, readDoc, ROOT, type CodeBlock } from './markdown.js';
import { SNIPPET_CONTEXTS } from './snippet-markers.js';

const CHECKED_LANGS = new Set(['ts', 'js']);
/** Languages that are not code to check; any other fence language fails the test, so no snippet escapes. */
const OTHER_LANGS = new Set(['sh', 'json', 'toml', 'text', '']);

/** What a `run` snippet may import (the test's own instances of them). */
const RUN_MODULES: Record<string, unknown> = {
  modelgate,
  'modelgate/testing': modelgateTesting,
  'node:assert/strict': assert,
  vitest: { describe, expect, it },
};

interface Snippet {
  block: CodeBlock;
  /** Virtual file name the compiler sees (it is never written). */
  path: string;
  source: string;
  /** Lines put before the snippet by its context. */
  prefixLines: number;
  run: boolean;
}

function toSnippet(block: CodeBlock, problems: string[]): Snippet {
  const dir = `${ROOT}test/unit/docs/__snippets__/${block.file.replace(/\.md$/, '').replace(/\//g, '_')}`;
  let name = `L${block.line}.${block.lang}`;
  const before: string[] = [];
  const after: string[] = [];
  let run = false;
  for (const marker of block.markers) {
    const context = SNIPPET_CONTEXTS[marker];
    if (marker === 'run') run = true;
    else if (marker.startsWith('file=')) name = marker.slice('file='.length);
    else if (context) {
      if (context.before) before.push(context.before);
      if (context.after) after.push(context.after);
    } else problems.push(`${block.file}:${block.line}: unknown snippet marker "${marker}"`);
  }
  const prefix = before.join('\n');
  const prefixLines = prefix ? prefix.split('\n').length : 0;
  // `export {}` makes every snippet a module, so top-level await and its own names are allowed.
  const source = [...(prefix ? [prefix] : []), block.code, ...after, 'export {};', ''].join('\n');
  return { block, path: `${dir}/${name}`, source, prefixLines, run };
}

function collectSnippets(): { snippets: Snippet[]; problems: string[] } {
  const snippets: Snippet[] = [];
  const problems: string[] = [];
  for (const file of docFiles()) {
    for (const block of codeBlocks(file, readDoc(file))) {
      if (CHECKED_LANGS.has(block.lang)) snippets.push(toSnippet(block, problems));
      else if (!OTHER_LANGS.has(block.lang)) problems.push(`${file}:${block.line}: code block in "${block.lang}", neither checked nor known`);
      else if (block.markers.length > 0) problems.push(`${file}:${block.line}: snippet markers on a "${block.lang}" block`);
    }
  }
  const paths = new Set<string>();
  for (const s of snippets) {
    if (paths.has(s.path)) problems.push(`${s.block.file}:${s.block.line}: a second snippet named ${s.path.split('/').pop()}`);
    paths.add(s.path);
  }
  return { snippets, problems };
}

/** One program for all snippets; returns `file:line: TSxxxx message` per error. */
function typeCheck(snippets: readonly Snippet[]): string[] {
  const config = ts.readConfigFile(`${ROOT}tsconfig.json`, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, allowJs: true, checkJs: true };
  const files = new Map(snippets.map((s) => [s.path, s]));
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, create) => {
    const snippet = files.get(name);
    return snippet ? ts.createSourceFile(name, snippet.source, language, true) : getSourceFile(name, language, onError, create);
  };
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.readFile = (name) => files.get(name)?.source ?? ts.sys.readFile(name);
  const program = ts.createProgram([...files.keys()], options, host);

  const errors = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(
    (d) => `tsconfig: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  );
  for (const snippet of snippets) {
    const sourceFile = program.getSourceFile(snippet.path)!;
    const diagnostics = [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
    for (const d of diagnostics) {
      const line = d.start === undefined ? -1 : sourceFile.getLineAndCharacterOfPosition(d.start).line - snippet.prefixLines;
      const codeLines = snippet.block.code.split('\n').length;
      const where = line >= 0 && line < codeLines ? `${snippet.block.line + line}` : `${snippet.block.line} (in the marker's context)`;
      errors.push(`${snippet.block.file}:${where}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    }
  }
  return errors;
}

type SnippetBody = (require: (name: string) => unknown, exports: object, module: object) => unknown;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => SnippetBody;

/** The snippet as a function (CommonJS, imports served from RUN_MODULES). */
function compileToRun(snippet: Snippet): () => unknown {
  const { file, line } = snippet.block;
  const js = ts.transpileModule(snippet.block.code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    fileName: `${file}-${line}.ts`,
  }).outputText;
  const body = /\bawait\b/.test(js) ? new AsyncFunction('require', 'exports', 'module', js) : (new Function('require', 'exports', 'module', js) as SnippetBody);
  const require = (name: string): unknown => {
    if (!(name in RUN_MODULES)) throw new Error(`${file}:${line}: a run snippet may import ${Object.keys(RUN_MODULES).join(', ')}; not ${name}`);
    return RUN_MODULES[name];
  };
  return () => {
    const module = { exports: {} };
    return body(require, module.exports, module);
  };
}

/** A snippet that must not type-check, checked in the same program: the test can fail, and says where. */
const BROKEN: Snippet = toSnippet(
  {
    file: 'self-test.md',
    lang: 'ts',
    line: 10,
    code: "import { createGateway } from 'modelgate';\n\ncreateGateway({ auth: { keys: [42] } });",
    markers: [],
  },
  [],
);

const { snippets, problems } = collectSnippets();

describe('documentation snippets', () => {
  it('every ts/js snippet type-checks against the source', { timeout: 180_000 }, () => {
    expect(problems).toEqual([]);
    expect(snippets.length).toBeGreaterThan(20);
    const errors = typeCheck([...snippets, BROKEN]);
    const selfTest = errors.filter((e) => e.startsWith('self-test.md:'));
    expect(selfTest.length).toBeGreaterThan(0);
    expect(selfTest[0]).toMatch(/^self-test\.md:12: TS2322 /);
    expect(errors.filter((e) => !e.startsWith('self-test.md:'))).toEqual([]);
  });

  const runnable = snippets.filter((s) => s.run);
  it('marks some snippets to run', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(3);
  });
  for (const snippet of runnable) {
    const { file, line } = snippet.block;
    if (/from ['"]vitest['"]/.test(snippet.block.code)) {
      // It declares tests: they run as tests of this file, under its place in the docs.
      describe(`${file}:${line}`, () => {
        compileToRun(snippet)();
      });
    } else {
      it(`${file}:${line} runs`, async () => {
        await compileToRun(snippet)();
      });
    }
  }
});
