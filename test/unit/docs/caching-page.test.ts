/**
 * docs/caching.md follows the cache's own lists: per interface, every
 * transport field with its reason and every default; every bypass rule with
 * its reason; the option defaults. The lists are read from the code, so a
 * field added to the key rules or the bypass rules fails here until the
 * page says it.
 */
import { describe, expect, it } from 'vitest';
import { BYPASS_RULES } from '../../../src/cache/cache-bypass-rules.js';
import { CACHE_DEFAULTS } from '../../../src/cache/cache-options.js';
import { type CacheApi, KEY_FIELD_RULES, PART_TRANSPORT_FIELDS, TRANSPORT_INCLUDE } from '../../../src/cache/key-fields.js';
import { readDoc } from './markdown.js';

const PAGE = readDoc('docs/caching.md');

/** The text from `heading` (a whole line) to the next heading of the same or a higher level. */
function section(page: string, heading: string): string {
  const lines = page.split('\n');
  const start = lines.indexOf(heading);
  expect(start, `heading "${heading}"`).toBeGreaterThan(-1);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

const KEY_SECTIONS: Readonly<Record<CacheApi, string>> = {
  chat: '### Chat completions',
  messages: '### Messages',
  responses: '### Responses',
};

describe('docs/caching.md', () => {
  for (const api of Object.keys(KEY_SECTIONS) as CacheApi[]) {
    it(`lists what is not in the ${api} key, with the reason, and the defaults filled in`, () => {
      const text = section(PAGE, KEY_SECTIONS[api]);
      const rules = KEY_FIELD_RULES[api];
      for (const [field, why] of Object.entries(rules.transport)) expect(text, field).toContain(`| \`${field}\` | ${why} |`);
      const rows = text.split('\n').filter((line) => line.startsWith('| `'));
      expect(rows, 'no row for a field the key holds').toHaveLength(Object.keys(rules.transport).length);
      for (const [field, value] of Object.entries(rules.defaults)) expect(text, field).toContain(`\`${field}: ${JSON.stringify(value)}\``);
    });
  }

  it('names the fields inside parts and the include entry that are not in the key', () => {
    for (const field of PART_TRANSPORT_FIELDS) {
      expect(section(PAGE, KEY_SECTIONS.chat)).toMatch(new RegExp(`\`${field}\` inside content parts`));
      expect(section(PAGE, KEY_SECTIONS.messages)).toMatch(new RegExp(`\`${field}\` inside content blocks`));
    }
    expect(section(PAGE, KEY_SECTIONS.responses)).toContain(`\`include\` of \`${TRANSPORT_INCLUDE}\` is not in the key`);
  });

  it('lists every bypass rule, per interface, with the reason, and no other', () => {
    const text = section(PAGE, '## What is never cached');
    const expected = (Object.keys(BYPASS_RULES) as CacheApi[]).flatMap((api) => BYPASS_RULES[api].map((rule) => `| ${api} | ${rule.field} | ${rule.why} |`));
    for (const row of expected) expect(text).toContain(row);
    const rows = text.split('\n').filter((line) => /^\| (chat|messages|responses) \|/.test(line));
    expect(rows).toEqual(expected);
  });

  it('gives the option defaults the code uses', () => {
    const numeric = { ttlSeconds: CACHE_DEFAULTS.ttlSeconds, waitMs: CACHE_DEFAULTS.waitMs, lockMs: CACHE_DEFAULTS.lockMs, storeTimeoutMs: CACHE_DEFAULTS.storeTimeoutMs, storeRetryMs: CACHE_DEFAULTS.storeRetryMs };
    for (const [name, value] of Object.entries(numeric)) {
      // The option's name, then "default ... <value>" within the same sentence.
      expect(PAGE, name).toMatch(new RegExp(`\`${name}\`[^.]*?default[^.]*?\\b${value}\\b`));
    }
    expect(PAGE).toContain(`**\`scope: '${CACHE_DEFAULTS.scope}'\`** (the default)`);
    expect(PAGE).toContain(`\`requestControls: ${!CACHE_DEFAULTS.requestControls}\` to ignore`);
  });

  it('is linked from the README and from the cache row of the configuration page', () => {
    expect(readDoc('README.md')).toContain('](docs/caching.md)');
    const row = readDoc('docs/configuration.md').split('\n').find((line) => line.startsWith('| `cache` |'));
    expect(row).toContain('](caching.md)');
  });
});
