/**
 * Model-id matching shared by routing, limits and observability: exact ids,
 * globs (`*` any run, `?` one character), regular expressions and predicates.
 */

/** Matches a requested model id: exact id or glob (`*` any run, `?` one character), regular expression, or predicate. */
export type ModelMatcher = string | RegExp | ((model: string) => boolean);

const REGEXP_SPECIALS = /[.+^${}()|[\]\\]/g;

/** Compiles a glob (`*`, `?`) to an anchored regular expression. @internal */
export function globToRegExp(glob: string): RegExp {
  const source = glob.replace(REGEXP_SPECIALS, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 's');
}

/** A predicate for `match`. @internal */
export function compileMatcher(match: ModelMatcher): (model: string) => boolean {
  if (typeof match === 'function') return match;
  if (match instanceof RegExp) {
    // Without g/y, `test` keeps no `lastIndex` state between calls.
    const re = new RegExp(match.source, match.flags.replace(/[gy]/g, ''));
    return (model) => re.test(model);
  }
  if (!/[*?]/.test(match)) return (model) => model === match;
  const re = globToRegExp(match);
  return (model) => re.test(model);
}
