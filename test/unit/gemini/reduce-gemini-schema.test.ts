/**
 * Expected schemas: Gemini's `Schema` reference (OpenAPI 3.0 subset, upper-case
 * `type`, `nullable`, string `enum`, int64 counts written as strings,
 * `propertyOrdering`) and JSON Schema's meaning of each input keyword.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_SCHEMA_CHARS,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  MAX_SCHEMA_WARNINGS,
  reduceGeminiSchema,
} from '../../../src/upstreams/gemini/reduce-gemini-schema.js';

const path = 'tools[0].function.parameters';
const reduce = (schema: unknown, orderProperties = false) => reduceGeminiSchema(schema, { path, orderProperties });

describe('JSON Schema → Gemini Schema', () => {
  it.each<[string, unknown, unknown]>([
    [
      'an object of scalars with the keywords Gemini takes',
      {
        type: 'object',
        description: 'A booking',
        properties: {
          city: { type: 'string', description: 'City', minLength: 2, maxLength: 40, pattern: '^[A-Z]', format: 'date-time', title: 'City' },
          nights: { type: 'integer', minimum: 1, maximum: 30, default: 1 },
          price: { type: 'number', example: 9.5 },
          pets: { type: 'boolean' },
        },
        required: ['city'],
        minProperties: 1,
        maxProperties: 4,
      },
      {
        type: 'OBJECT',
        description: 'A booking',
        properties: {
          city: { type: 'STRING', description: 'City', minLength: '2', maxLength: '40', pattern: '^[A-Z]', format: 'date-time', title: 'City' },
          nights: { type: 'INTEGER', minimum: 1, maximum: 30, default: 1 },
          price: { type: 'NUMBER', example: 9.5 },
          pets: { type: 'BOOLEAN' },
        },
        required: ['city'],
        minProperties: '1',
        maxProperties: '4',
      },
    ],
    [
      'an array with bounds',
      { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1', maxItems: '3' },
    ],
    ['a nullable type list', { type: ['string', 'null'] }, { type: 'STRING', nullable: true }],
    ['several types', { type: ['string', 'integer'] }, { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] }],
    ['anyOf with null (pydantic Optional)', { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'd' }, { type: 'STRING', nullable: true, description: 'd' }],
    ['a real anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }] }, { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] }],
    ['a string enum', { type: 'string', enum: ['EAST', 'WEST'] }, { type: 'STRING', enum: ['EAST', 'WEST'] }],
    ['an enum without type', { enum: ['a', 'b'] }, { type: 'STRING', enum: ['a', 'b'] }],
    ['an integer enum (Google writes the values as strings)', { enum: [101, 201] }, { type: 'INTEGER', enum: ['101', '201'] }],
    ['an enum with null', { type: 'string', enum: ['a', null] }, { type: 'STRING', enum: ['a'], nullable: true }],
    ['const', { const: 'fixed' }, { type: 'STRING', enum: ['fixed'] }],
    ['OpenAPI nullable', { type: 'string', nullable: true }, { type: 'STRING', nullable: true }],
    ['true (anything)', true, {}],
    ['a one-element allOf', { allOf: [{ type: 'string', description: 'inner' }], description: 'outer' }, { description: 'outer', type: 'STRING' }],
    [
      'additionalProperties: false and annotations, silently',
      { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'x', $comment: 'c', type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
      { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
    ],
    ['an object whose properties are all empty', { type: 'object', properties: {} }, { type: 'OBJECT' }],
  ])('%s', (_name, input, expected) => {
    expect(reduce(input)).toEqual({ schema: expected, warnings: [] });
  });

  it('names each keyword it leaves out by its path', () => {
    const { schema, warnings } = reduce({
      type: 'object',
      properties: {
        x: { type: 'string', not: { const: 'a' } },
        list: { type: 'array', items: { type: 'integer', multipleOf: 2 }, uniqueItems: true },
        extra: { type: 'object', additionalProperties: { type: 'string' } },
        n: { type: 'number', exclusiveMinimum: 0 },
      },
      patternProperties: { '^a': {} },
    });
    expect(schema).toEqual({
      type: 'OBJECT',
      properties: { x: { type: 'STRING' }, list: { type: 'ARRAY', items: { type: 'INTEGER' } }, extra: { type: 'OBJECT' }, n: { type: 'NUMBER' } },
    });
    expect(warnings.sort()).toEqual(
      [
        'tools[0].function.parameters.properties.x.not: not supported by Gemini, left out',
        'tools[0].function.parameters.properties.list.items.multipleOf: not supported by Gemini, left out',
        'tools[0].function.parameters.properties.list.uniqueItems: not supported by Gemini, left out',
        'tools[0].function.parameters.properties.extra.additionalProperties: not supported by Gemini, left out',
        'tools[0].function.parameters.properties.n.exclusiveMinimum: not supported by Gemini, left out',
        'tools[0].function.parameters.patternProperties: not supported by Gemini, left out',
      ].sort(),
    );
  });

  it('sends oneOf as anyOf and says that more than one option may then match', () => {
    const { schema, warnings } = reduce({ oneOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(schema).toEqual({ anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] });
    expect(warnings).toEqual([`${path}.oneOf: sent as anyOf, as Gemini has no oneOf: more than one option may match`]);
  });

  it('leaves out tuple items and enums of other values, with warnings', () => {
    const { schema, warnings } = reduce({ type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] }, e: { enum: [true, false] } } });
    expect(schema).toEqual({ type: 'OBJECT', properties: { t: { type: 'ARRAY' }, e: {} } });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^tools\[0\]\.function\.parameters\.properties\.t\.items: tuple form/);
    expect(warnings[1]).toMatch(/^tools\[0\]\.function\.parameters\.properties\.e\.enum: holds values other than strings and numbers/);
  });

  it('keeps the caller key order as propertyOrdering when asked (structured output)', () => {
    const { schema } = reduce({ type: 'object', properties: { zeta: { type: 'string' }, alpha: { type: 'object', properties: { b: {}, a: {} } } } }, true);
    expect(schema).toEqual({
      type: 'OBJECT',
      properties: { zeta: { type: 'STRING' }, alpha: { type: 'OBJECT', properties: { b: {}, a: {} }, propertyOrdering: ['b', 'a'] } },
      propertyOrdering: ['zeta', 'alpha'],
    });
  });
});

describe('$ref', () => {
  it('inlines local references ($defs, definitions, pointers with escapes), siblings winning', () => {
    const { schema, warnings } = reduce({
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/Address', description: 'home' },
        b: { $ref: '#/definitions/Id' },
        c: { $ref: '#/$defs/we~1ird%20name' },
      },
      $defs: { Address: { type: 'object', description: 'an address', properties: { street: { type: 'string' } } }, 'we/ird name': { type: 'boolean' } },
      definitions: { Id: { type: 'integer' } },
    });
    expect(warnings).toEqual([]);
    expect(schema).toEqual({
      type: 'OBJECT',
      properties: {
        a: { type: 'OBJECT', description: 'home', properties: { street: { type: 'STRING' } } },
        b: { type: 'INTEGER' },
        c: { type: 'BOOLEAN' },
      },
    });
  });

  it('unrolls a recursive reference a few levels, then cuts it and its required entry', () => {
    const { schema, warnings } = reduce({
      $defs: { Node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/Node' } }, required: ['value', 'next'] } },
      $ref: '#/$defs/Node',
    });
    let depth = 0;
    let node = schema;
    while (node?.properties?.next) {
      expect(node.required).toEqual(['value', 'next']);
      node = node.properties.next;
      depth++;
    }
    expect(depth).toBe(2);
    expect(node).toEqual({ type: 'OBJECT', properties: { value: { type: 'STRING' } }, required: ['value'] });
    expect(warnings).toEqual([`${path}.properties.next.properties.next.properties.next: recursive $ref "#/$defs/Node" cut after 3 levels, left out`]);
  });

  it('does not follow remote references', () => {
    const { schema, warnings } = reduce({ type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } });
    expect(schema).toEqual({ type: 'OBJECT', properties: { a: {} } });
    expect(warnings[0]).toMatch(/properties\.a\.\$ref: "https:\/\/example\.com\/schema\.json" is not a local reference/);
  });
});

describe('bounded work on hostile schemas', () => {
  it('cuts nesting deeper than the limit, however deep the input', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5_000; i++) deep = { type: 'object', properties: { n: deep } };
    const started = performance.now();
    const { schema, warnings } = reduce(deep);
    expect(performance.now() - started).toBeLessThan(1_000);
    let levels = 0;
    let node = schema;
    while (node?.properties?.n) {
      node = node.properties.n;
      levels++;
    }
    expect(levels).toBe(MAX_SCHEMA_DEPTH);
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`nested deeper than ${MAX_SCHEMA_DEPTH} levels`))]);
  });

  it('reduces 10,000 properties in bounded time', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) properties[`p${i}`] = { type: 'string', description: `field ${i}` };
    const started = performance.now();
    const { schema, warnings } = reduce({ type: 'object', properties, required: Object.keys(properties) });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(Object.keys(schema?.properties ?? {})).toHaveLength(10_000);
    expect(schema?.required).toHaveLength(10_000);
    expect(warnings).toEqual([]);
  });

  it('stops growing at the node limit when $refs fan out exponentially', () => {
    // Each level references the next twice: 2^30 subschemas if fully inlined.
    const defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 29; i >= 0; i--) defs[`d${i}`] = { type: 'object', properties: { l: { $ref: `#/$defs/d${i + 1}` }, r: { $ref: `#/$defs/d${i + 1}` } } };
    const started = performance.now();
    const { schema, warnings } = reduce({ $defs: defs, $ref: '#/$defs/d0' });
    expect(performance.now() - started).toBeLessThan(3_000);
    let count = 0;
    const visit = (node: unknown): void => {
      count++;
      for (const child of Object.values((node as { properties?: Record<string, unknown> }).properties ?? {})) visit(child);
    };
    visit(schema);
    expect(count).toBeLessThanOrEqual(MAX_SCHEMA_NODES);
    expect(warnings.some((warning) => warning.includes(`more than ${MAX_SCHEMA_NODES} subschemas`))).toBe(true);
  });

  it('leaves out a schema whose $refs repeat one long text past the size limit', () => {
    // 270 KB of input that would be 600 MB once inlined.
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 6_000; i++) properties[`p${i}`] = { $ref: '#/$defs/a' };
    const started = performance.now();
    const { schema, warnings } = reduce({ type: 'object', properties, $defs: { a: { type: 'string', description: 'x'.repeat(100_000) } } });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(schema).toBeUndefined();
    expect(warnings).toContain(`${path}: longer than ${MAX_SCHEMA_CHARS} characters once its $refs are inlined, left out`);
  });

  it('caps warnings and counts the rest in one line', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 1_000; i++) properties[`p${i}`] = { type: 'string', not: {} };
    const { warnings } = reduce({ type: 'object', properties });
    expect(warnings).toHaveLength(MAX_SCHEMA_WARNINGS + 1);
    expect(warnings.at(-1)).toBe(`${path}: ${1_000 - MAX_SCHEMA_WARNINGS} more keywords or subschemas left out`);
  });
});
