/**
 * Model-id matching shared by routing, limits and observability: exact ids,
 * globs (`*` any run, `?` one character), regular expressions and predicates.
 *
 * Globs are matched without a regular expression: a backtracking `.*` makes
 * a glob with two stars quadratic in the model id (`*-*-mini` took 26 s on a
 * 200,000-character id), and model ids come from callers. Split at its stars,
 * a glob is literal pieces: the first must start the id, the last end it, and
 * each middle piece is taken at its leftmost place after the one before
 * (leftmost is never worse for what follows). That is one pass with
 * `indexOf`, at worst id length × glob length for pieces holding `?`.
 */

/** Matches a requested model id: exact id or glob (`*` any run, `?` one character), regular expression, or predicate. */
export type ModelMatcher = string | RegExp | ((model: string) => boolean);

const ANY_ONE = 0x3f; // '?'

/** True when `text` holds `*` or `?`, so it is a glob rather than an exact id. @internal */
export function isGlob(text: string): boolean {
  return text.includes('*') || text.includes('?');
}

/** True when `piece` (where `?` is any one UTF-16 unit) matches `text` at `at`; the caller checks that it fits. */
function pieceMatchesAt(text: string, piece: string, at: number): boolean {
  for (let i = 0; i < piece.length; i++) {
    const code = piece.charCodeAt(i);
    if (code !== ANY_ONE && code !== text.charCodeAt(at + i)) return false;
  }
  return true;
}

/** The leftmost place at or after `from` where `piece` matches and ends by `end`; -1 when none. */
function findPiece(text: string, piece: string, from: number, end: number): number {
  if (!piece.includes('?')) {
    const at = text.indexOf(piece, from);
    return at !== -1 && at + piece.length <= end ? at : -1;
  }
  for (let at = from; at + piece.length <= end; at++) if (pieceMatchesAt(text, piece, at)) return at;
  return -1;
}

/**
 * A predicate for a glob: `*` any run of characters (line breaks too), `?`
 * exactly one UTF-16 unit, everything else itself, case-sensitive; the
 * whole id must match. @internal
 */
export function compileGlob(glob: string): (text: string) => boolean {
  const pieces = glob.split('*');
  const first = pieces[0]!;
  if (pieces.length === 1) return (text) => text.length === first.length && pieceMatchesAt(text, first, 0);
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1);
  return (text) => {
    const end = text.length - last.length;
    if (end < first.length || !pieceMatchesAt(text, first, 0) || !pieceMatchesAt(text, last, end)) return false;
    let at = first.length;
    for (const piece of middle) {
      const found = findPiece(text, piece, at, end);
      if (found === -1) return false;
      at = found + piece.length;
    }
    return true;
  };
}

/** A predicate for `match`. @internal */
export function compileMatcher(match: ModelMatcher): (model: string) => boolean {
  if (typeof match === 'function') return match;
  if (match instanceof RegExp) {
    // Without g/y, `test` keeps no `lastIndex` state between calls.
    const re = new RegExp(match.source, match.flags.replace(/[gy]/g, ''));
    return (model) => re.test(model);
  }
  if (!isGlob(match)) return (model) => model === match;
  return compileGlob(match);
}
