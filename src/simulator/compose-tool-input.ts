/**
 * Tool arguments that are valid against the tool's JSON schema: every
 * required property present with the right type, enums and `const`
 * respected, numbers within `minimum`/`maximum`, string lengths within
 * `minLength`/`maxLength`. Strings prefer words from the user's message so
 * a `city` argument for "weather in Paris" is likely "Paris".
 *
 * Covers the schema keywords tool definitions use in practice; `$ref`,
 * `pattern` and `format` are not interpreted.
 */
import type { Random } from './random.js';

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nesting limit, so self-similar schemas cannot recurse forever. */
const MAX_DEPTH = 6;

const STOP_WORDS = new Set(['the', 'a', 'an', 'in', 'on', 'of', 'for', 'to', 'and', 'is', 'what', 'please', 'use', 'call', 'tool', 'with', 'me', 'my']);

/**
 * Capitalised words of the message first (names, places), then other content
 * words; identifiers with `_` (tool names) and `exclude` are left out.
 */
/** Characters of the user's message a tool's arguments are made from (a fenced block is taken from within them). */
export const MESSAGE_READ_CHARS = 16_384;

/** The start of `message` that is read: every called tool and each structured answer reads it again. */
function readStart(message: string): string {
  return message.length > MESSAGE_READ_CHARS ? message.slice(0, MESSAGE_READ_CHARS) : message;
}

function candidateWords(message: string, exclude: string): string[] {
  const words = readStart(message).match(/[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu) ?? [];
  const excluded = exclude.toLowerCase();
  const content = words.filter((word) => !STOP_WORDS.has(word.toLowerCase()) && !word.includes('_') && word.toLowerCase() !== excluded);
  const capitalised = content.filter((word, index) => /^\p{Lu}/u.test(word) && index > 0);
  const named = new Set(capitalised);
  return [...capitalised, ...content.filter((word) => !named.has(word))];
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((item): item is string => typeof item === 'string' && item !== 'null');
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

interface Context {
  random: Random;
  words: string[];
  /** Strings composed so far: the n-th string takes the n-th candidate word. */
  strings: number;
}

function composeString(schema: Schema, ctx: Context, name: string): string {
  const word = ctx.words[ctx.strings % Math.max(1, ctx.words.length)] ?? `sample ${name}`.trim();
  ctx.strings += 1;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  return word.padEnd(min, 'x').slice(0, max);
}

function composeNumber(schema: Schema, ctx: Context, integer: boolean): number {
  const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
  const high = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : Math.max(low, 0) + 100;
  if (high < low) return low;
  const value = low + ctx.random.next() * (high - low);
  return integer ? Math.min(Math.floor(high), Math.max(Math.ceil(low), Math.round(value))) : Math.round(value * 100) / 100;
}

function composeValue(schema: unknown, ctx: Context, name: string, depth: number): unknown {
  if (!isSchema(schema)) return composeString({}, ctx, name);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return ctx.random.pick(schema.enum);
  if ('default' in schema && schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const usable = options.filter((option) => !(isSchema(option) && option.type === 'null'));
      return composeValue(usable[0] ?? options[0], ctx, name, depth + 1);
    }
  }
  switch (typeOf(schema)) {
    case 'integer':
      return composeNumber(schema, ctx, true);
    case 'number':
      return composeNumber(schema, ctx, false);
    case 'boolean':
      return ctx.random.next() < 0.5;
    case 'null':
      return null;
    case 'array': {
      if (depth >= MAX_DEPTH) return [];
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, 1);
      const capped = typeof schema.maxItems === 'number' ? Math.min(count, schema.maxItems) : count;
      return Array.from({ length: capped }, () => composeValue(schema.items, ctx, name, depth + 1));
    }
    case 'object':
      return depth >= MAX_DEPTH ? {} : composeObject(schema, ctx, depth + 1);
    default:
      return composeString(schema, ctx, name);
  }
}

function composeObject(schema: Schema, ctx: Context, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
  const out: Record<string, unknown> = {};
  for (const key of required) out[key] = composeValue(properties[key], ctx, key, depth);
  return out;
}

/** The content of the message's first fenced block (```…```), without its fences and language tag. */
function fencedBlock(message: string): string | undefined {
  const match = /```[^\n`]*\n([\s\S]*?)\n?```/.exec(message);
  return match?.[1];
}

/**
 * Arguments for a tool with JSON schema `schema`, from the user's `message`
 * and `random`.
 * Only required properties are filled (optional ones are left out, as models
 * usually do). Words equal to `toolName` are not used as values. When the
 * message holds a fenced block, the first required string property takes
 * its content verbatim, as a model passes on the text it was told to write
 * (a patch for an `apply_patch` tool, a command, a file's content). Only
 * the message's first {@link MESSAGE_READ_CHARS} characters are read.
 */
export function composeToolInput(
  schema: unknown,
  source: { message: string; random: Random; toolName?: string },
): Record<string, unknown> {
  const ctx: Context = { random: source.random, words: candidateWords(source.message, source.toolName ?? ''), strings: 0 };
  if (!isSchema(schema)) return {};
  const input = composeObject(schema, ctx, 0);
  const block = fencedBlock(readStart(source.message));
  if (block === undefined) return input;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const first = required.find((key): key is string => typeof key === 'string' && isSchema(properties[key]) && typeOf(properties[key]) === 'string');
  if (first !== undefined) input[first] = block;
  return input;
}

/** A value for a whole JSON schema (structured output). */
export function composeJsonValue(schema: unknown, source: { message: string; random: Random }): unknown {
  return composeValue(schema, { random: source.random, words: candidateWords(source.message, ''), strings: 0 }, 'value', 0);
}
