/**
 * Turns zod issues into one short, client-facing line per problem:
 * `messages.2.content.0.image_url.url: expected string, received number`.
 *
 * Zod reports a failed union as one `invalid_union` issue holding every
 * branch's issues; echoing that ("Invalid input") tells the caller nothing.
 * Here the branch that got furthest is explained instead.
 *
 * A body can fail in tens of thousands of places; issues are explained
 * lazily, so only the few that are shown (and a bounded count after them)
 * cost anything. What was received is read from the body along the issue's
 * path, so the body is parsed once, without zod's `reportInput` slow path.
 */
import type { z } from 'zod';
import { OTHER_TYPE_MARKER } from './other-type.js';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** One explained problem: where, and what was expected. */
export interface IssueLine {
  /** Path segments from the body root. */
  path: PropertyKey[];
  /** `expected string, received number`, `field required`, … */
  message: string;
}

/** How many issues `formatIssues` spells out before `(and N more)`. */
const MAX_SHOWN = 3;
/** Most issues `formatIssues` counts for `(and N more)`; past it, `(and more)`. */
export const MAX_COUNTED = 100;

/** Where an issue's received value comes from: the issue itself (`reportInput`) or the parsed body, walked along its path. */
export interface ExplainOptions {
  /** The value that was parsed, to read what each failing field received. */
  body?: unknown;
}

/** Sentinel for "no body given": an `undefined` body is a real (missing) value. */
const NO_BODY: unique symbol = Symbol('no body');
type Source = unknown;

/** Dotted path as the vendors print it (`messages.2.content`); `''` for the root. */
export function formatPath(path: Path): string {
  return path.map(String).join('.');
}

/**
 * Formats a zod error as `path: message` entries joined with `; `, at most
 * three, then `(and N more)`. For union failures the most useful branch is
 * explained (see `explainIssues`).
 */
export function formatIssues(error: z.ZodError | { issues: readonly Issue[] }, options: ExplainOptions = {}): string {
  const lines = explainIssues(error.issues, { ...options, limit: MAX_COUNTED + 1 });
  const shown = lines.slice(0, MAX_SHOWN).map((line) => {
    const path = formatPath(line.path);
    return path === '' ? line.message : `${path}: ${line.message}`;
  });
  if (lines.length > MAX_COUNTED) return `${shown.join('; ')} (and more)`;
  const rest = lines.length - shown.length;
  return rest > 0 ? `${shown.join('; ')} (and ${rest} more)` : shown.join('; ');
}

/**
 * Explains each issue (descending into unions), without duplicates, in
 * order; with `limit`, stops after that many lines (the rest is not looked at).
 */
export function explainIssues(issues: readonly Issue[], options: ExplainOptions & { limit?: number } = {}): IssueLine[] {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const source: Source = 'body' in options ? options.body : NO_BODY;
  const lines: IssueLine[] = [];
  if (limit <= 0) return lines;
  const seen = new Set<string>();
  for (const issue of issues) {
    for (const line of explain(issue, [], source)) {
      const key = `${formatPath(line.path)}\u0000${line.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(line);
      if (lines.length >= limit) return lines;
    }
  }
  return lines;
}

function* explain(issue: Issue, base: Path, source: Source): Generator<IssueLine> {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    yield* explainUnion(issue.errors, issue, path, source);
    return;
  }
  if ((issue.code === 'invalid_key' || issue.code === 'invalid_element') && issue.issues.length > 0) {
    for (const inner of issue.issues) yield* explain(inner, path, source);
    return;
  }
  yield { path, message: describe(issue, path, source) };
}

/** What an issue at `path` received: the issue's own `input` (`reportInput`), else the body's value there. */
function inputOf(issue: Issue, path: Path, source: Source): { known: boolean; value: unknown } {
  if ('input' in issue) return { known: true, value: issue.input };
  if (source === NO_BODY) return { known: false, value: undefined };
  let value: unknown = source;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return { known: true, value: undefined };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { known: true, value };
}

/** A branch's failure ranked by how likely it is what the caller meant. */
interface Branch {
  issues: readonly Issue[];
  /** The branch rejected the object's kind (`type`/`role`), not its content. */
  wrongKind: boolean;
  /** Deepest path reached: a deeper failure means more of the input matched. */
  depth: number;
}

function deepestPath(issues: readonly Issue[]): number {
  // A loop, not Math.max(...): a branch may hold tens of thousands of issues.
  let depth = Number.NEGATIVE_INFINITY;
  for (const issue of issues) if (issue.path.length > depth) depth = issue.path.length;
  return depth;
}

function* explainUnion(branches: readonly (readonly Issue[])[], union: Issue, path: PropertyKey[], source: Source): Generator<IssueLine> {
  const ranked: Branch[] = branches.map((issues) => ({ issues, wrongKind: issues.some(isWrongKind), depth: deepestPath(issues) }));
  const anyRightKind = ranked.some((branch) => !branch.wrongKind);
  const candidates = anyRightKind ? ranked.filter((branch) => !branch.wrongKind) : ranked;
  const depth = Math.max(...candidates.map((branch) => branch.depth));
  const deepest = candidates.filter((branch) => branch.depth === depth);
  const merged = mergeAlternatives(deepest, path, source);
  if (merged) {
    yield merged;
    return;
  }
  const best = deepest.reduce((a, b) => (b.issues.length < a.issues.length ? b : a));
  if (best.issues.length === 0) {
    yield { path, message: describe(union, path, source) };
    return;
  }
  for (const issue of best.issues) yield* explain(issue, path, source);
}

/** True when a branch failed on the tag that selects it (`type`, `role`). */
function isWrongKind(issue: Issue): boolean {
  if (issue.code === 'custom' && issue.params?.[OTHER_TYPE_MARKER] === true) return true;
  if (issue.path.length !== 1) return false;
  const key = issue.path[0];
  if (key !== 'type' && key !== 'role') return false;
  return issue.code === 'invalid_value' || issue.code === 'invalid_union' || issue.code === 'custom';
}

/**
 * When every tied branch failed with one type/value mismatch at the same
 * place (`content: 5` against string | array), one line lists all the
 * alternatives: `expected string | array, received number`.
 */
function mergeAlternatives(branches: readonly Branch[], base: Path, source: Source): IssueLine | undefined {
  if (branches.length < 2) return undefined;
  const alternatives: string[] = [];
  let where: string | undefined;
  let input: unknown;
  let missing = false;
  for (const { issues } of branches) {
    const [issue] = issues;
    if (issues.length !== 1 || !issue) return undefined;
    const at = formatPath(issue.path);
    if (where !== undefined && where !== at) return undefined;
    where = at;
    const received = inputOf(issue, [...base, ...issue.path], source);
    if (issue.code === 'invalid_type') {
      alternatives.push(typeName(issue.expected));
      missing = isMissing(issue, received);
    } else if (issue.code === 'invalid_value') {
      alternatives.push(...issue.values.map((value) => JSON.stringify(value)));
    } else {
      return undefined;
    }
    input = received.value;
  }
  const first = branches[0]?.issues[0];
  const path = [...base, ...(first?.path ?? [])];
  if (missing) return { path, message: 'field required' };
  const unique = [...new Set(alternatives)];
  const received = input === undefined ? '' : `, received ${receivedName(input)}`;
  return { path, message: `expected ${unique.join(' | ')}${received}` };
}

/** A single issue at `path` in words. */
function describe(issue: Issue, path: Path, source: Source): string {
  switch (issue.code) {
    case 'invalid_type': {
      const received = inputOf(issue, path, source);
      if (isMissing(issue, received)) return 'field required';
      return `expected ${typeName(issue.expected)}${receivedSuffix(issue, received)}`;
    }
    case 'invalid_value': {
      const received = inputOf(issue, path, source);
      if (received.known && received.value === undefined) return 'field required';
      return expectedValues(issue.values);
    }
    case 'invalid_union':
      if (issue.discriminator !== undefined && tagOf(unionInputOf(issue, path, source), issue.discriminator) === undefined) {
        return 'field required';
      }
      if ('options' in issue && issue.options && issue.options.length > 0) return expectedValues(issue.options);
      return 'does not match any allowed shape';
    case 'too_small':
      return describeBound(issue.origin, 'least', issue.minimum, issue.inclusive !== false);
    case 'too_big':
      return describeBound(issue.origin, 'most', issue.maximum, issue.inclusive !== false);
    case 'invalid_format':
      return `invalid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
    case 'invalid_key':
      return 'invalid key';
    case 'invalid_element':
      return 'invalid element';
    case 'custom':
      return issue.message;
  }
}

function describeBound(origin: string, side: 'least' | 'most', bound: number | bigint, inclusive: boolean): string {
  const value = String(bound);
  if (origin === 'array' || origin === 'set') {
    const unit = `item${bound === 1 || bound === 1n ? '' : 's'}`;
    return side === 'least' ? `must contain at least ${value} ${unit}` : `must contain at most ${value} ${unit}`;
  }
  if (origin === 'string') {
    const unit = `character${bound === 1 || bound === 1n ? '' : 's'}`;
    return `must be at ${side} ${value} ${unit} long`;
  }
  if (inclusive) return `must be at ${side} ${value}`;
  return side === 'least' ? `must be greater than ${value}` : `must be less than ${value}`;
}

function expectedValues(values: readonly unknown[]): string {
  const list = values.map((value) => JSON.stringify(value) ?? String(value));
  return list.length === 1 ? `expected ${list[0]}` : `expected one of ${list.join(' | ')}`;
}

/**
 * A required field is reported as `invalid_type` with an `undefined` input.
 * Without the input (no `reportInput`, no body), zod's own message still
 * names what it received.
 */
function isMissing(issue: Issue & { code: 'invalid_type' }, received: { known: boolean; value: unknown }): boolean {
  if (received.known) return received.value === undefined;
  return issue.message.endsWith('received undefined');
}

function receivedSuffix(issue: Issue & { code: 'invalid_type' }, received: { known: boolean; value: unknown }): string {
  if (received.known) return `, received ${receivedName(received.value)}`;
  const at = issue.message.lastIndexOf('received ');
  const name = at === -1 ? '' : issue.message.slice(at + 'received '.length);
  return /^\w+$/.test(name) ? `, received ${name}` : '';
}

/** The object a discriminated union looked at: its issue's path ends in the discriminator, the object sits one level up. */
function unionInputOf(issue: Issue & { code: 'invalid_union' }, path: Path, source: Source): unknown {
  if ('input' in issue) return issue.input;
  const endsInTag = path.length > 0 && path[path.length - 1] === issue.discriminator;
  return inputOf(issue, endsInTag ? path.slice(0, -1) : path, source).value;
}

function tagOf(input: unknown, key: string): unknown {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined;
}

function typeName(expected: string): string {
  return expected === 'int' ? 'integer' : expected;
}

function receivedName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
