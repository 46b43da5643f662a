/**
 * A JSON Schema (a tool's `parameters`, a `response_format` schema) →
 * Gemini's `Schema`, the OpenAPI 3.0 subset of
 * `FunctionDeclaration.parameters` and `GenerationConfig.responseSchema`.
 *
 * Why this form and not `parametersJsonSchema` / `responseJsonSchema`: the
 * `Schema` message is accepted by every Gemini model on both AI Studio and
 * Vertex, and it is a protobuf message, so its field set is exact (an
 * unknown field is a 400 "Cannot find field"); the JSON Schema fields
 * accept a documented subset and say nothing about the rest. Reducing here
 * means every keyword left out is named in a warning.
 *
 * - Kept: `type` (upper-cased), `format`, `title`, `description`,
 *   `nullable`, `enum`, `default`, `example`, `items`, `minItems`,
 *   `maxItems`, `properties`, `required`, `minProperties`,
 *   `maxProperties`, `propertyOrdering`, `minLength`, `maxLength`,
 *   `pattern`, `minimum`, `maximum`, `anyOf` (the int64 counts as strings,
 *   as the REST reference writes them).
 * - Rewritten: `type: [T, 'null']` → `T` + `nullable`; several types →
 *   `anyOf`; `anyOf: [S, {type:'null'}]` → `S` + `nullable`; `const` →
 *   one-value `enum`; numeric enum values → strings (Google's documented
 *   form); `oneOf` → `anyOf` (a warning: "exactly one" becomes "at least
 *   one"); a one-element `allOf` → its schema; local `$ref`s (`#/$defs/…`,
 *   `#/definitions/…`, any `#/…` pointer) → inlined, with sibling keywords
 *   kept over the target's.
 * - Left out silently: `additionalProperties: false` (Gemini never writes
 *   undeclared properties, so it says nothing new) and the annotations
 *   `$schema`, `$id`, `$anchor`, `$comment`, `$defs`, `definitions`.
 * - Left out with a warning naming the keyword's path: everything else.
 *
 * Bounded work on any input: nesting deeper than {@link MAX_SCHEMA_DEPTH}
 * (counting `$ref` hops) and a recursive `$ref` met a
 * {@link MAX_REF_REPEATS}th time are cut, and a schema stops growing at
 * {@link MAX_SCHEMA_NODES} subschemas, so `$ref` fan-out cannot explode;
 * each input keyword is looked at once per visit. A schema whose inlined
 * `$ref`s make it longer than {@link MAX_SCHEMA_CHARS} (one long
 * description referenced from many places) is left out whole, as sending
 * it would cost its size times the references. Cut properties leave
 * `required` too. Warnings per schema stop at {@link MAX_SCHEMA_WARNINGS},
 * then one line counts the rest.
 *
 * @see https://ai.google.dev/api/caching#Schema
 * @internal
 */
import type { GeminiSchema, GeminiSchemaType } from './gemini-types.js';
import {
  COUNTS,
  copyPlain,
  isObject,
  type JsonObject,
  leftOut,
  reduceEnum,
  reduceType,
  type Walk,
  warn,
} from './reduce-gemini-schema-keywords.js';
import { resolveLocalRef } from './resolve-local-ref.js';

export { MAX_SCHEMA_WARNINGS } from './reduce-gemini-schema-keywords.js';

/** Deepest nesting kept (Gemini's own limit on schema depth is of this order). */
export const MAX_SCHEMA_DEPTH = 32;
/** Subschemas written per schema before the rest is cut. */
export const MAX_SCHEMA_NODES = 20_000;
/** Characters (keys and text, roughly as JSON) a schema with inlined `$ref`s may reach. */
export const MAX_SCHEMA_CHARS = 2_000_000;
/** A `$ref` already on the current path this many times is not expanded again. */
export const MAX_REF_REPEATS = 3;

const SILENT = new Set(['$schema', '$id', '$anchor', '$comment', '$defs', 'definitions']);
/** Keywords handled explicitly below; any other is left out with a warning. */
const HANDLED = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'const', 'default', 'example', 'items',
  'properties', 'required', 'propertyOrdering', 'pattern', 'minimum', 'maximum', 'anyOf', 'oneOf', 'allOf',
  'additionalProperties', '$ref', ...COUNTS,
]);

/** Options of {@link reduceGeminiSchema}. */
export interface ReduceGeminiSchemaOptions {
  /** Where the schema sits in the caller's request, for warnings (`tools[0].function.parameters`). */
  path: string;
  /** Add `propertyOrdering` (the caller's key order) where absent: Gemini otherwise orders output keys alphabetically. */
  orderProperties?: boolean;
}

/** The reduced schema (absent when nothing of it could be kept) and what was left out. */
export interface ReducedGeminiSchema {
  schema?: GeminiSchema;
  warnings: string[];
}

function isNullSchema(value: unknown): boolean {
  return isObject(value) && value.type === 'null' && Object.keys(value).length === 1;
}

function reduceProperties(value: unknown, out: GeminiSchema, path: string, depth: number, refs: readonly string[], walk: Walk): void {
  if (!isObject(value)) return leftOut(walk, path, 'must be an object of schemas');
  const properties: Record<string, GeminiSchema> = {};
  let any = false;
  for (const key of Object.keys(value)) {
    const reduced = reduceNode(value[key], `${path}.${key}`, depth + 1, refs, walk);
    if (reduced === undefined) continue;
    properties[key] = reduced;
    any = true;
  }
  // An OBJECT with an empty `properties` map is a 400; without the map it is a free-form object.
  if (any) out.properties = properties;
}

function reduceAnyOf(value: unknown, out: GeminiSchema, path: string, depth: number, refs: readonly string[], walk: Walk): void {
  if (!Array.isArray(value)) return leftOut(walk, path, 'must be an array of schemas');
  const options: GeminiSchema[] = [];
  value.forEach((option, i) => {
    if (isNullSchema(option)) {
      out.nullable = true;
      return;
    }
    const reduced = reduceNode(option, `${path}[${i}]`, depth + 1, refs, walk);
    if (reduced !== undefined) options.push(reduced);
  });
  const [only] = options;
  if (options.length === 1 && only && out.type === undefined && out.anyOf === undefined) mergeMissing(out, only);
  else if (options.length > 0) out.anyOf = [...(out.anyOf ?? []), ...options];
}

/** Copies into `out` the keywords of `from` it does not have yet: the outer schema's own keywords win. */
function mergeMissing(out: GeminiSchema, from: GeminiSchema): void {
  for (const [key, value] of Object.entries(from)) if (!(key in out)) Object.assign(out, { [key]: value });
}

function reduceObject(node: JsonObject, path: string, depth: number, refs: readonly string[], walk: Walk): GeminiSchema {
  const out: GeminiSchema = {};
  if (node.type !== undefined) reduceType(node.type, out, `${path}.type`, walk);
  copyPlain(node, out, path, walk);
  let impliedType: GeminiSchemaType | undefined;
  if (Array.isArray(node.enum)) impliedType = reduceEnum(node.enum, out, `${path}.enum`, walk);
  else if (node.enum !== undefined) leftOut(walk, `${path}.enum`, 'must be an array');
  else if ('const' in node) impliedType = reduceEnum([node.const], out, `${path}.const`, walk);
  if (impliedType && out.type === undefined && out.anyOf === undefined) out.type = impliedType;
  if (Array.isArray(node.items)) leftOut(walk, `${path}.items`, 'tuple form (an array of schemas) not supported by Gemini');
  else if (node.items !== undefined) {
    const items = reduceNode(node.items, `${path}.items`, depth + 1, refs, walk);
    if (items !== undefined) out.items = items;
  }
  if (node.properties !== undefined) reduceProperties(node.properties, out, `${path}.properties`, depth, refs, walk);
  if (Array.isArray(node.required)) {
    const names = node.required.filter((name): name is string => typeof name === 'string');
    const kept = out.properties ? names.filter((name) => Object.hasOwn(out.properties ?? {}, name)) : names;
    if (kept.length > 0) out.required = kept;
  }
  if (Array.isArray(node.propertyOrdering)) out.propertyOrdering = node.propertyOrdering.filter((name): name is string => typeof name === 'string');
  else if (walk.orderProperties && out.properties) out.propertyOrdering = Object.keys(out.properties);
  if (node.anyOf !== undefined) reduceAnyOf(node.anyOf, out, `${path}.anyOf`, depth, refs, walk);
  if (node.oneOf !== undefined) {
    warn(walk, `${path}.oneOf: sent as anyOf, as Gemini has no oneOf: more than one option may match`);
    reduceAnyOf(node.oneOf, out, `${path}.oneOf`, depth, refs, walk);
  }
  if (node.allOf !== undefined) {
    if (Array.isArray(node.allOf) && node.allOf.length === 1) {
      const only = reduceNode(node.allOf[0], `${path}.allOf[0]`, depth + 1, refs, walk);
      if (only) mergeMissing(out, only);
    } else leftOut(walk, `${path}.allOf`);
  }
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) leftOut(walk, `${path}.additionalProperties`);
  for (const key of Object.keys(node)) {
    if (!HANDLED.has(key) && !SILENT.has(key)) leftOut(walk, `${path}.${key}`);
  }
  return out;
}

function reduceRef(node: JsonObject, path: string, depth: number, refs: readonly string[], walk: Walk): GeminiSchema | undefined {
  const ref = node.$ref;
  if (typeof ref !== 'string') {
    leftOut(walk, `${path}.$ref`, 'must be a string');
    return undefined;
  }
  if (refs.filter((seen) => seen === ref).length >= MAX_REF_REPEATS) {
    warn(walk, `${path}: recursive $ref ${JSON.stringify(ref)} cut after ${MAX_REF_REPEATS} levels, left out`);
    return undefined;
  }
  const target = resolveLocalRef(walk.root, ref);
  if (target === undefined) {
    warn(walk, `${path}.$ref: ${JSON.stringify(ref)} is not a local reference this schema defines, left out`);
    return {};
  }
  walk.expanded = true;
  const resolved = reduceNode(target, path, depth + 1, [...refs, ref], walk);
  const { $ref: _ref, ...siblings } = node;
  if (Object.keys(siblings).length === 0 || resolved === undefined) return resolved;
  // Keywords beside a $ref refine it (a description, a default): they win over the target's.
  return { ...resolved, ...reduceObject(siblings, path, depth, refs, walk) };
}

function reduceNode(node: unknown, path: string, depth: number, refs: readonly string[], walk: Walk): GeminiSchema | undefined {
  if (walk.truncatedAt !== undefined) return undefined;
  if (++walk.nodes > MAX_SCHEMA_NODES) {
    walk.truncatedAt = path;
    return undefined;
  }
  if (depth > MAX_SCHEMA_DEPTH) {
    warn(walk, `${path}: nested deeper than ${MAX_SCHEMA_DEPTH} levels, left out`);
    return undefined;
  }
  if (node === true) return {};
  if (!isObject(node)) {
    leftOut(walk, path, node === false ? 'a schema nothing matches has no Gemini form' : 'not a schema');
    return undefined;
  }
  if ('$ref' in node) return reduceRef(node, path, depth, refs, walk);
  return reduceObject(node, path, depth, refs, walk);
}

/** Whether `schema` is longer than {@link MAX_SCHEMA_CHARS}; stops counting there, so it costs at most that much. */
function tooLong(schema: GeminiSchema): boolean {
  let chars = 0;
  const over = new Error('over');
  try {
    JSON.stringify(schema, (key, value: unknown) => {
      chars += key.length + (typeof value === 'string' ? value.length : 4);
      if (chars > MAX_SCHEMA_CHARS) throw over;
      return value;
    });
  } catch (error) {
    if (error === over) return true;
    throw error;
  }
  return false;
}

/**
 * Reduces `schema` to Gemini's `Schema`, with one warning per keyword left
 * out (`<path>.properties.x.pattern: ...`).
 *
 * @example
 * reduceGeminiSchema({ type: 'object', properties: { x: { type: 'string', not: {} } } }, { path: 'tools[0].function.parameters' });
 * // { schema: { type: 'OBJECT', properties: { x: { type: 'STRING' } } },
 * //   warnings: ['tools[0].function.parameters.properties.x.not: not supported by Gemini, left out'] }
 */
export function reduceGeminiSchema(schema: unknown, options: ReduceGeminiSchemaOptions): ReducedGeminiSchema {
  const walk: Walk = { root: schema, orderProperties: options.orderProperties ?? false, nodes: 0, warnings: [], suppressed: 0 };
  const reduced = reduceNode(schema, options.path, 0, [], walk);
  if (walk.suppressed > 0) walk.warnings.push(`${options.path}: ${walk.suppressed} more keywords or subschemas left out`);
  if (walk.truncatedAt !== undefined) {
    walk.warnings.push(`${walk.truncatedAt}: the schema has more than ${MAX_SCHEMA_NODES} subschemas; this one and the rest left out`);
  }
  if (reduced !== undefined && walk.expanded === true && tooLong(reduced)) {
    walk.warnings.push(`${options.path}: longer than ${MAX_SCHEMA_CHARS} characters once its $refs are inlined, left out`);
    return { warnings: walk.warnings };
  }
  return reduced === undefined ? { warnings: walk.warnings } : { schema: reduced, warnings: walk.warnings };
}
