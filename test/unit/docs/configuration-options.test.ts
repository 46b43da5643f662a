/**
 * docs/configuration.md lists every option the gateway's schema accepts:
 * each top-level option in a row of its table, and each option of a group
 * (`auth`, `limits`, `routing`, ...) somewhere on the page in code. The
 * names are read from the schemas, so a new option fails here until it is
 * documented.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { keysAuthSchema, verifyAuthSchema } from '../../../src/options/auth-schema.js';
import { cacheOptionsSchema } from '../../../src/options/cache-schema.js';
import { filesOptionsSchema, GATEWAY_OPTIONS_SHAPE } from '../../../src/options/gateway-options-schema.js';
import { openTelemetryObjectSchema } from '../../../src/options/observability-schema.js';
import { readDoc } from './markdown.js';

const PAGE = readDoc('docs/configuration.md');
const TABLE_HEADER = '| Option | Default | Meaning |';

/** The schema inside `.optional()` / `.readonly()`. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodReadonly) inner = inner.unwrap() as z.core.$ZodType;
  return inner;
}

/** The option names of an object schema; none for anything else. */
function namesOf(schema: z.core.$ZodType): string[] {
  const inner = unwrap(schema);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}

/** The groups whose shape is chosen by the value given (`{ keys }` or `{ verify }`, ...), read from their object schemas. */
const CHOSEN_SHAPES: Readonly<Record<string, readonly z.core.$ZodType[]>> = {
  auth: [keysAuthSchema, verifyAuthSchema],
  files: [filesOptionsSchema],
  cache: [cacheOptionsSchema],
  openTelemetry: [openTelemetryObjectSchema],
};

/** Group → the names of its options, for every top-level option that is an object of options. */
function groups(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [name, schema] of Object.entries(GATEWAY_OPTIONS_SHAPE)) {
    const names = [...namesOf(schema), ...(CHOSEN_SHAPES[name] ?? []).flatMap(namesOf)];
    if (names.length > 0) found.set(name, [...new Set(names)]);
  }
  return found;
}

/** The first cells of the gateway options table's rows. */
function tableOptionCells(): string[] {
  const start = PAGE.indexOf(TABLE_HEADER);
  expect(start, 'the gateway options table').toBeGreaterThan(-1);
  const cells: string[] = [];
  for (const line of PAGE.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    cells.push(line.split('|')[1]!.trim());
  }
  return cells;
}

/** Every inline code span on the page. */
const CODE_SPANS = [...PAGE.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);

const asWord = (name: string) => new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);

describe('docs/configuration.md', () => {
  it('has a table row for every gateway option', () => {
    const cells = tableOptionCells();
    const missing = Object.keys(GATEWAY_OPTIONS_SHAPE).filter((name) => !cells.some((cell) => [...cell.matchAll(/`([^`]+)`/g)].some((span) => asWord(name).test(span[1]!.split('(')[0]!))));
    expect(missing).toEqual([]);
  });

  it('the table runs unbroken to its last row', () => {
    // A blank line or a stray line inside a Markdown table ends it: the rows after it render as text.
    const section = PAGE.slice(PAGE.indexOf(TABLE_HEADER), PAGE.indexOf('\n## ', PAGE.indexOf(TABLE_HEADER)));
    const rowsInSection = section.split('\n').filter((line) => line.startsWith('| `')).length;
    expect(tableOptionCells()).toHaveLength(rowsInSection);
  });

  it('names every option of each group in code', () => {
    const found = groups();
    for (const group of ['auth', 'limits', 'routing', 'admission', 'files', 'responses', 'requestBounds', 'streamBounds', 'cache']) expect(found.has(group), group).toBe(true);
    const missing: string[] = [];
    for (const [group, names] of found) {
      for (const name of names) if (!CODE_SPANS.some((span) => asWord(name).test(span))) missing.push(`${group}.${name}`);
    }
    expect(missing).toEqual([]);
  });
});
