/**
 * Turns zod issues into one short, client-facing line per problem:
 * `messages.2.content.0.image_url.url: expected string, received number`.
 *
 * Zod reports a failed union as one `invalid_union` issue holding every
 * branch's issues; echoing that ("Invalid input") tells the caller nothing.
 * Here the branch that got furthest is explained instead.
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

/** Dotted path as the vendors print it (`messages.2.content`); `''` for the root. */
export function formatPath(path: Path): string {
  return path.map(String).join('.');
}

/**
 * Formats a zod error as `path: message` entries joined with `; `, at most
 * three, then `(and N more)`. For union failures the most useful branch is
 * explained (see `explainIssues`).
 */
export function formatIssues(error: z.ZodError | { issues: readonly Issue[] }): string {
  const lines = explainIssues(error.issues);
  const shown = lines.slice(0, MAX_SHOWN).map((line) => {
    const path = formatPath(line.path);
    return path === '' ? line.message : `${path}: ${line.message}`;
  });
  const rest = lines.length - shown.length;
  return rest > 0 ? `${shown.join('; ')} (and ${rest} more)` : shown.join('; ');
}

/** Explains each issue (descending into unions), without duplicates. */
export function explainIssues(issues: readonly Issue[]): IssueLine[] {
  const lines: IssueLine[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    for (const line of explain(issue, [])) {
      const key = `${formatPath(line.path)}\u0000${line.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(line);
    }
  }
  return lines;
}

function explain(issue: Issue, base: Path): IssueLine[] {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    return explainUnion(issue.errors, issue, path);
  }
  if ((issue.code === 'invalid_key' || issue.code === 'invalid_element') && issue.issues.length > 0) {
    return issue.issues.flatMap((inner) => explain(inner, path));
  }
  return [{ path, message: describe(issue) }];
}

/** A branch's failure ranked by how likely it is what the caller meant. */
interface Branch {
  issues: readonly Issue[];
  /** The branch rejected the object's kind (`type`/`role`), not its content. */
  wrongKind: boolean;
  /** Deepest path reached: a deeper failure means more of the input matched. */
  depth: number;
}

function explainUnion(branches: readonly (readonly Issue[])[], union: Issue, path: PropertyKey[]): IssueLine[] {
  const ranked: Branch[] = branches.map((issues) => ({
    issues,
    wrongKind: issues.some(isWrongKind),
    depth: Math.max(...issues.map((issue) => issue.path.length)),
  }));
  const anyRightKind = ranked.some((branch) => !branch.wrongKind);
  const candidates = anyRightKind ? ranked.filter((branch) => !branch.wrongKind) : ranked;
  const depth = Math.max(...candidates.map((branch) => branch.depth));
  const deepest = candidates.filter((branch) => branch.depth === depth);
  const merged = mergeAlternatives(deepest, path);
  if (merged) return [merged];
  const best = deepest.reduce((a, b) => (b.issues.length < a.issues.length ? b : a));
  if (best.issues.length === 0) return [{ path, message: describe(union) }];
  return best.issues.flatMap((issue) => explain(issue, path));
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
function mergeAlternatives(branches: readonly Branch[], base: Path): IssueLine | undefined {
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
    if (issue.code === 'invalid_type') {
      alternatives.push(typeName(issue.expected));
      missing = isMissing(issue);
    } else if (issue.code === 'invalid_value') {
      alternatives.push(...issue.values.map((value) => JSON.stringify(value)));
    } else {
      return undefined;
    }
    input = issue.input;
  }
  const first = branches[0]?.issues[0];
  const path = [...base, ...(first?.path ?? [])];
  if (missing) return { path, message: 'field required' };
  const unique = [...new Set(alternatives)];
  const received = input === undefined ? '' : `, received ${receivedName(input)}`;
  return { path, message: `expected ${unique.join(' | ')}${received}` };
}

/** A single issue in words. */
function describe(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (isMissing(issue)) return 'field required';
      return `expected ${typeName(issue.expected)}${receivedSuffix(issue)}`;
    case 'invalid_value':
      if ('input' in issue && issue.input === undefined) return 'field required';
      return expectedValues(issue.values);
    case 'invalid_union':
      if (issue.discriminator !== undefined && tagOf(issue.input, issue.discriminator) === undefined) {
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
 * The input is only attached with `reportInput`; otherwise zod's own message
 * still names what it received.
 */
function isMissing(issue: Issue & { code: 'invalid_type' }): boolean {
  if ('input' in issue) return issue.input === undefined;
  return issue.message.endsWith('received undefined');
}

function receivedSuffix(issue: Issue & { code: 'invalid_type' }): string {
  if ('input' in issue) return `, received ${receivedName(issue.input)}`;
  const match = /received (\w+)$/.exec(issue.message);
  return match ? `, received ${match[1]}` : '';
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
