/**
 * A request's `Cache-Control` directives, as the response cache honours
 * them (RFC 9111 §5.2.1): `no-cache`, `no-store` and `max-age=N`. Other
 * directives are ignored. The header comes from the caller, so the work is
 * bounded and nothing in it can make the parser throw.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-5.2.1
 */
import type { RequestCacheControl } from './cache-types.js';

/**
 * Characters read across every line of the header (each line also costs
 * one, as the comma that joins it would). Real headers are a few dozen;
 * what lies beyond is ignored, so a header of many KB costs no more than this.
 */
export const MAX_CACHE_CONTROL_CHARS = 4096;

/** Directives read at most; those after it are ignored. */
export const MAX_CACHE_CONTROL_DIRECTIVES = 32;

/**
 * The largest `max-age` kept: RFC 9111 §1.2.2 has a cache take a
 * delta-seconds value it cannot represent as 2^31.
 */
export const MAX_DELTA_SECONDS = 2 ** 31;

/** One `name[=value]` of the list; `malformed` for an unterminated quoted string or text after one. */
interface Directive {
  name: string;
  value: string | undefined;
  malformed: boolean;
}

/**
 * Parses a request's `Cache-Control` (one string, or the header's lines as
 * Node gives them, read as one comma-joined list). Directive names are
 * case-insensitive; arguments may be tokens or quoted strings (RFC 9111
 * §5.2: a recipient ought to accept both forms).
 *
 * `max-age` whose value is not delta-seconds (`max-age=abc`, `=-1`, `=1.5`,
 * no value, an unterminated quote) reads as `max-age=0`: RFC 9111 §4.2.1
 * encourages treating invalid freshness information as stale, and for a
 * request the restrictive reading is that no stored entry is fresh enough
 * (the answer is fetched and stored). Several `max-age`s: the smallest
 * holds (§4.2.1: when directives conflict, the most restrictive one).
 *
 * @example parseRequestCacheControl('No-Cache, max-age="60"') // { noCache: true, noStore: false, maxAgeSeconds: 60 }
 */
export function parseRequestCacheControl(header: string | readonly string[] | undefined): RequestCacheControl {
  const control: RequestCacheControl = { noCache: false, noStore: false };
  const lines: readonly unknown[] = typeof header === 'string' ? [header] : Array.isArray(header) ? header : [];
  let budget = MAX_CACHE_CONTROL_CHARS;
  let directives = 0;
  for (const line of lines) {
    if (budget <= 0 || directives >= MAX_CACHE_CONTROL_DIRECTIVES) break;
    if (typeof line !== 'string') {
      budget -= 1; // as an empty line: a long array of them is bounded too
      continue;
    }
    const truncated = line.length > budget;
    const text = truncated ? line.slice(0, budget) : line;
    budget -= text.length + 1;
    for (const directive of scanDirectives(text, { max: MAX_CACHE_CONTROL_DIRECTIVES - directives, truncated })) {
      directives += 1;
      applyDirective(control, directive);
    }
  }
  return control;
}

function applyDirective(control: RequestCacheControl, { name, value, malformed }: Directive): void {
  if (name === 'no-cache') control.noCache = true;
  else if (name === 'no-store') control.noStore = true;
  else if (name === 'max-age') {
    const seconds = malformed ? 0 : parseDeltaSeconds(value);
    control.maxAgeSeconds = control.maxAgeSeconds === undefined ? seconds : Math.min(control.maxAgeSeconds, seconds);
  }
}

const DIGITS = /^[0-9]+$/;

/** delta-seconds (RFC 9111 §1.2.2): digits only; too large → 2^31; anything else → 0 (see above). */
function parseDeltaSeconds(value: string | undefined): number {
  if (value === undefined || !DIGITS.test(value)) return 0;
  // More than 10 digits is past 2^31 whatever they are; Number() of fewer is exact.
  return value.length > 10 ? MAX_DELTA_SECONDS : Math.min(Number(value), MAX_DELTA_SECONDS);
}

const isSpace = (char: string | undefined): boolean => char === ' ' || char === '\t';

/**
 * The directives of one line, in one pass: `name`, `name=token` or
 * `name="quoted \"string\""`, separated by commas (a comma inside quotes
 * separates nothing). With `truncated`, the line was cut at the budget and
 * the directive that reaches its end may be cut too: it is left out.
 */
function* scanDirectives(text: string, { max, truncated }: { max: number; truncated: boolean }): Generator<Directive> {
  const end = text.length;
  let i = 0;
  let found = 0;
  while (found < max) {
    while (i < end && (text[i] === ',' || isSpace(text[i]))) i += 1;
    if (i >= end) return;
    const nameStart = i;
    while (i < end && text[i] !== '=' && text[i] !== ',') i += 1;
    const name = text.slice(nameStart, i).trim().toLowerCase();
    let value: string | undefined;
    let malformed = false;
    if (text[i] === '=') {
      i += 1;
      while (isSpace(text[i])) i += 1;
      if (text[i] === '"') {
        const quoted = readQuoted(text, i);
        i = quoted.next;
        value = quoted.value;
        malformed = quoted.value === undefined;
        // Only spaces may follow the closing quote before the next comma.
        while (i < end && text[i] !== ',') {
          if (!isSpace(text[i])) malformed = true;
          i += 1;
        }
      } else {
        const valueStart = i;
        while (i < end && text[i] !== ',') i += 1;
        value = text.slice(valueStart, i).trim();
      }
    }
    if (truncated && i >= end) return;
    found += 1;
    yield { name, value, malformed };
  }
}

/** A quoted-string starting at `start` (its `"`): its unescaped text, or undefined when it never closes. */
function readQuoted(text: string, start: number): { value: string | undefined; next: number } {
  const parts: string[] = [];
  let i = start + 1;
  let runStart = i;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      parts.push(text.slice(runStart, i));
      return { value: parts.join(''), next: i + 1 };
    }
    if (char === '\\' && i + 1 < text.length) {
      parts.push(text.slice(runStart, i), text[i + 1]!);
      i += 2;
      runStart = i;
      continue;
    }
    i += 1;
  }
  return { value: undefined, next: i };
}
