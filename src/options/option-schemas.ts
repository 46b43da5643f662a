/**
 * The building blocks of the option schemas: strict objects that name the
 * closest known option for a typo, and leaves whose messages say what to
 * give instead (an unset environment variable above all).
 *
 * @internal
 */
import { z } from 'zod';
import { unknownKeyMessages } from './suggest-name.js';

/** Separates the lines of one `unrecognized_keys` issue (one per key); see config-issues.ts. */
export const KEY_LINE_SEPARATOR = '\n';

/** The longest delay Node's timers take (about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** What a value is, for "(got …)": its type, and a number's value (never a string's: it may be a key). */
export function got(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}`;
}

/**
 * A strict object: unknown keys are problems, with the closest known name.
 *
 * @param label How an option of it is named: `a route` → "is not a route option".
 * @param expected What it must be, for a value that is not an object: `an object { keys } or { verify }`.
 * @param moved Messages for names that belong elsewhere (`keys` → "belongs in `auth`").
 */
export function optionsObject<S extends z.core.$ZodLooseShape>(shape: S, label: string, expected: string, moved: Readonly<Record<string, string>> = {}) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => (Object.hasOwn(moved, key) ? moved[key]! : unknownKeyMessages([key], known, label)[0]!)).join(KEY_LINE_SEPARATOR);
      }
      if (issue.code === 'invalid_type') return issue.input === undefined ? `is missing: give ${expected}` : `must be ${expected} (got ${got(issue.input)})`;
      return undefined;
    },
  });
}

/** A function (hook, verifier, matcher). */
export function fn<F extends (...args: never[]) => unknown>(expected: string) {
  return z.custom<F>((value) => typeof value === 'function', {
    error: (issue) => (issue.input === undefined ? `is missing: give ${expected}` : `must be ${expected} (got ${got(issue.input)})`),
  });
}

/** A value that must be exactly `T` by a check of its own, with one message for anything else. */
export function shaped<T>(check: (value: unknown) => boolean, message: (value: unknown) => string) {
  return z.custom<T>(check, { error: (issue) => message(issue.input) });
}

/** How an unset environment variable shows up in an option, and what to do. */
export interface TextHint {
  /** What the string is: `a key callers send`. */
  expected: string;
  /** The variable it usually comes from, for the hint: `MODELGATE_KEY`. */
  env?: string;
  /** How to do without it, when the option may be left out: `leave apiKey out for an upstream that takes no key`. */
  omit?: string;
}

function unsetHint(hint: TextHint, what: string): string {
  const source = hint.env ? `Set ${hint.env} (or the variable you read it from)` : 'Set the variable you read it from';
  return `${what} — an unset environment variable? ${source}${hint.omit ? `, or ${hint.omit}` : ''}.`;
}

/** A non-empty string; undefined and empty get the unset-variable hint. */
export function text(hint: TextHint) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? unsetHint(hint, 'is undefined') : `must be ${hint.expected}, a string (got ${got(issue.input)})`) })
    .min(1, { error: () => unsetHint(hint, 'is an empty string') });
}

/** An integer from `min` to `max`; `meaning` follows the value given: `ms for the TCP connect`. */
export function int(min: number, max: number, meaning: string) {
  const message = (issue: { input?: unknown }) => `must be an integer from ${min} to ${max} (got ${got(issue.input)})${meaning ? `: ${meaning}` : ''}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/** A time-out or interval in ms where 0 turns it off. */
export function timerMs(what: string) {
  return int(0, MAX_TIMER_MS, `${what}, in ms; 0 turns it off, and Node's timers take at most ${MAX_TIMER_MS}`);
}

/** A number `>= min` (or `> min` when `exclusive`); `Infinity` allowed when `infinite`. */
export function amount(min: number, options: { exclusive?: boolean; infinite?: boolean; meaning: string }) {
  const bound = options.exclusive ? `greater than ${min}` : `${min} or more`;
  return shaped<number>(
    (value) =>
      typeof value === 'number' &&
      !Number.isNaN(value) &&
      (options.infinite === true || Number.isFinite(value)) &&
      (options.exclusive ? value > min : value >= min),
    (value) => `must be a number ${bound}${options.infinite ? ' (Infinity for no bound)' : ''} (got ${got(value)}): ${options.meaning}`,
  );
}

/** One of a few literal values, named in the message. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, meaning = '') {
  const list = values.map((value) => JSON.stringify(value)).join(' or ');
  return z.enum(values, {
    error: (issue) => `must be ${list} (got ${typeof issue.input === 'string' ? JSON.stringify(issue.input) : got(issue.input)})${meaning ? `: ${meaning}` : ''}`,
  });
}

/** A boolean switch. */
export function flag() {
  return z.boolean({ error: (issue) => `must be true or false (got ${got(issue.input)})` });
}

/**
 * A value checked by the schema `pick` chooses for it (or refused with the
 * message it returns): for options whose shape depends on what was given
 * (`{ keys }` or `{ verify }`, an upstream or `{ upstream, model }`), so
 * that the message is about the shape meant, not a list of every shape.
 */
export function either<T>(pick: (value: unknown) => z.ZodType | string | undefined) {
  return z.custom<T>().superRefine((value, ctx) => {
    const chosen = pick(value);
    if (chosen === undefined) return;
    if (typeof chosen === 'string') {
      ctx.addIssue({ code: 'custom', message: chosen });
      return;
    }
    const result = chosen.safeParse(value);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue } as z.core.$ZodRawIssue);
  });
}

/** True for a non-null object (or a function with properties). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/** True when `A` and `B` accept the same values: each is assignable to the other. Used at type level only. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compile-time proof: `type _ = Assert<Same<A, B>>` fails to compile when `A` and `B` drift apart. */
export type Assert<T extends true> = T;

/** `Same` for the values and the option names (optional options escape the first check). */
export type SameOptions<A, B> = Same<A, B> extends true ? Same<keyof A, keyof B> : false;
