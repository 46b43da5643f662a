/**
 * Every relative link in the README and docs/ points to a file that exists,
 * and every `#anchor` to a heading of the page it names.
 */
import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, headingAnchors, links, readDoc, ROOT } from './markdown.js';

/** What is wrong with a link, or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: ...
  const hash = target.indexOf('#');
  const path = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = path === '' ? file : normalize(join(dirname(file), path));
  if (resolved.startsWith('..')) return `${target} leaves the repository`;
  if (!existsSync(join(ROOT, resolved))) return `${target}: no file ${resolved}`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  if (!headingAnchors(readDoc(resolved)).has(anchor)) return `${target}: ${resolved} has no heading #${anchor}`;
  return undefined;
}

describe('documentation links', () => {
  it('every relative link and anchor resolves', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of docFiles()) {
      for (const link of links(file, readDoc(file))) {
        checked++;
        const problem = brokenLink(file, link.target);
        if (problem) problems.push(`${file}:${link.line}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('finds a broken file, a broken anchor, and GitHub anchors of headings with code and symbols', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toContain('no file docs/no-such-page.md');
    expect(brokenLink('README.md', 'docs/models.md#no-such-heading')).toContain('has no heading #no-such-heading');
    expect(brokenLink('docs/models.md', '#rules')).toBeUndefined();
    expect(brokenLink('docs/models.md', '../README.md#install')).toBeUndefined();
    const anchors = headingAnchors('# Chat ⇄ messages translation\n## The `adaptThinking` switch\n## Rules\n## Rules\n```sh\n# not a heading\n```');
    expect([...anchors]).toEqual(['chat--messages-translation', 'the-adaptthinking-switch', 'rules', 'rules-1']);
  });
});
