/**
 * Reads the project's Markdown: which files are documentation, their fenced
 * code blocks (with the marker comment before each), their headings' anchors
 * and their links. Shared by the snippet and link tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root directory, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** README.md, every page under docs/, and the example apps' README, relative to the root. */
export function docFiles(): string[] {
  const pages = readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages, 'examples/README.md'];
}

export function readDoc(file: string): string {
  return readFileSync(`${ROOT}${file}`, 'utf8');
}

export interface CodeBlock {
  /** The document, relative to the root. */
  file: string;
  /** The fence's info string's first word (`ts`, `sh`, ...). */
  lang: string;
  /** 1-based line of the block's first code line (the line after the fence). */
  line: number;
  code: string;
  /**
   * Words of a `<!-- snippet: a, b=c -->` comment on the line right before the
   * fence (empty when there is none).
   */
  markers: string[];
}

const MARKER = /^<!--\s*snippet:\s*(.*?)\s*-->$/;

export function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '```', lang = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(fence); j++) body.push(lines[j]!.slice(indent.length));
    const before = i > 0 ? MARKER.exec(lines[i - 1]!.trim()) : null;
    const markers = before?.[1] ? before[1].split(',').map((m) => m.trim()).filter(Boolean) : [];
    blocks.push({ file, lang, line: i + 2, code: body.join('\n'), markers });
    i = j;
  }
  return blocks;
}

/** The text outside fenced code blocks, with code lines blanked (line numbers kept). */
function proseLines(text: string): string[] {
  let inFence = false;
  return text.split('\n').map((line) => {
    if (/^\s*`{3,}/.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line;
  });
}

/**
 * The anchor GitHub gives a heading: lower case, punctuation removed (not `-`
 * or `_`), each space a hyphen, `-1`, `-2`, ... on repeats (github-slugger).
 */
export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const plain = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface Link {
  file: string;
  line: number;
  target: string;
}

/** Markdown links `[text](target)` outside code (fenced or inline). */
export function links(file: string, text: string): Link[] {
  const found: Link[] = [];
  proseLines(text).forEach((line, index) => {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      found.push({ file, line: index + 1, target: match[1]! });
    }
  });
  return found;
}
