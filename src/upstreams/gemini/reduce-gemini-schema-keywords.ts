/**
 * The keyword-level rules of `reduce-gemini-schema.ts`: the walk's shared
 * state and warnings, and the keywords that need no recursion (`type`,
 * `enum`/`const`, the scalar keywords Gemini takes unchanged).
 *
 * @internal
 */
import type { GeminiSchema, GeminiSchemaType } from './gemini-types.js';

/** Warnings per schema before they are counted instead. */
export const MAX_SCHEMA_WARNINGS = 20;

const TYPES: Readonly<Record<string, GeminiSchemaType>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};

/** The int64 count keywords, written as strings on the wire. */
export const COUNTS = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'] as const;

/** A schema object as parsed from JSON. */
export type JsonObject = Record<string, unknown>;

/** State of one reduction: the root (for `$ref`), the node budget, the warnings. */
export interface Walk {
  root: unknown;
  orderProperties: boolean;
  nodes: number;
  /** A `$ref` was inlined: the result may be larger than the input. */
  expanded?: boolean;
  /** Where the node limit was reached: reported apart from the capped warnings. */
  truncatedAt?: string;
  warnings: string[];
  suppressed: number;
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Records a warning, or counts it once the cap is reached. */
export function warn(walk: Walk, message: string): void {
  if (walk.warnings.length < MAX_SCHEMA_WARNINGS) walk.warnings.push(message);
  else walk.suppressed++;
}

/** Records that the keyword at `path` was left out, and why. */
export function leftOut(walk: Walk, path: string, why = 'not supported by Gemini'): void {
  warn(walk, `${path}: ${why}, left out`);
}

/**
 * `enum`/`const` values → Gemini's string list (numbers written as strings,
 * Google's documented form for numeric enums); `null` makes the schema
 * nullable. Returns the type the values imply, for a schema that names none.
 */
export function reduceEnum(values: readonly unknown[], out: GeminiSchema, path: string, walk: Walk): GeminiSchemaType | undefined {
  const strings: string[] = [];
  let allIntegers = true;
  let allNumbers = true;
  for (const value of values) {
    if (value === null) {
      out.nullable = true;
      continue;
    }
    if (typeof value === 'string') allNumbers = allIntegers = false;
    else if (typeof value === 'number' && Number.isFinite(value)) allIntegers &&= Number.isInteger(value);
    else {
      leftOut(walk, path, 'holds values other than strings and numbers, which Gemini enums cannot');
      return undefined;
    }
    strings.push(String(value));
  }
  if (strings.length === 0) return undefined;
  out.enum = strings;
  if (!allNumbers) return 'STRING';
  return allIntegers ? 'INTEGER' : 'NUMBER';
}

/** JSON Schema `type` (a name or a list) → Gemini `type`, `nullable` for `"null"`, `anyOf` for several types. */
export function reduceType(type: unknown, out: GeminiSchema, path: string, walk: Walk): void {
  const names = (Array.isArray(type) ? type : [type]).filter((name) => name !== 'null');
  if (names.length < (Array.isArray(type) ? type.length : 1)) out.nullable = true;
  const types: GeminiSchemaType[] = [];
  for (const name of names) {
    const mapped = typeof name === 'string' ? TYPES[name] : undefined;
    if (!mapped) return leftOut(walk, path, `type ${JSON.stringify(name)} is not a JSON Schema type`);
    types.push(mapped);
  }
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) out.anyOf = types.map((one) => ({ type: one }));
  else if (out.nullable) out.type = 'NULL';
}

/** Copies the keywords Gemini takes unchanged, when their values have the right JSON type. */
export function copyPlain(node: JsonObject, out: GeminiSchema, path: string, walk: Walk): void {
  for (const key of ['format', 'title', 'description', 'pattern'] as const) {
    const value = node[key];
    if (value === undefined) continue;
    if (typeof value === 'string') out[key] = value;
    else leftOut(walk, `${path}.${key}`, 'must be a string');
  }
  for (const key of ['minimum', 'maximum'] as const) {
    const value = node[key];
    if (value === undefined) continue;
    if (typeof value === 'number') out[key] = value;
    else leftOut(walk, `${path}.${key}`, 'must be a number');
  }
  for (const key of COUNTS) {
    const value = node[key];
    if (value === undefined) continue;
    if (Number.isInteger(value) && (value as number) >= 0) out[key] = String(value);
    else leftOut(walk, `${path}.${key}`, 'must be a non-negative integer');
  }
  if (node.nullable === true) out.nullable = true;
  if ('default' in node) out.default = node.default;
  if ('example' in node) out.example = node.example;
}
