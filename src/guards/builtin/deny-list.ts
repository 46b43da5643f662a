/**
 * A guard that refuses requests, and stops answers, that contain any of a
 * list of terms: whole words or phrases, case-insensitive, in any
 * interface. A streamed answer is stopped before the term is sent.
 */
import type { Guard, GuardErrorPolicy, OutputChannel } from '../guard-types.js';
import { viewParts } from '../view-parts.js';

/** Options of {@link denyList}. */
export interface DenyListOptions {
  /** The denied words or phrases (at least one, none empty). Matched whole, ignoring case. */
  terms: readonly string[];
  /** Default `'deny-list'`. */
  name?: string;
  /** What the caller is told. Default: a sentence that does not repeat the term. */
  reason?: string;
  /** Check requests. Default true. */
  input?: boolean;
  /** Output channels to check; `[]` checks no answers. Default `['text']`. */
  outputChannels?: readonly OutputChannel[];
  /** Default `'closed'`. */
  onError?: GuardErrorPolicy;
}

/** The default reason: it names no term, so the list is not revealed. */
export const DENY_LIST_REASON = 'The content contains a term this service does not allow.';

// Only syntax characters: under the `u` flag, escaping any other character is an error.
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A pattern matching any term as a whole word: no letter, digit or `_`
 * right before or after it. The alternation lists the terms longest first.
 */
export function denyPattern(terms: readonly string[]): RegExp {
  if (terms.length === 0 || terms.some((term) => term.trim() === '')) {
    throw new TypeError('denyList: `terms` needs at least one term, and no empty one');
  }
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'iu');
}

/**
 * The first match in `text` that ends after `releasedLength`. Text already
 * sent was judged before; there, a window's cut-off start could make a
 * part of a longer word look like a whole term. The search starts a
 * term's length before the sent text ends; the look-behind still sees the
 * characters before it. `search` is the pattern with the `g` flag; the
 * search runs to its end synchronously, so one instance serves every call.
 */
function firstNewMatch(search: RegExp, text: string, releasedLength: number, longest: number): { end: number } | undefined {
  search.lastIndex = Math.max(0, releasedLength - longest);
  for (let match = search.exec(text); match !== null; match = search.exec(text)) {
    const end = match.index + match[0].length;
    if (end > releasedLength) return { end };
  }
  return undefined;
}

/**
 * The deny-list guard. Its holdback is the longest term plus one
 * character, just enough to see a term and what follows it.
 *
 * @example
 * createGateway({ guards: [denyList({ terms: ['project nightingale'] })], ... });
 */
export function denyList(options: DenyListOptions): Guard {
  const pattern = denyPattern(options.terms);
  const search = new RegExp(pattern.source, 'giu');
  const reason = options.reason ?? DENY_LIST_REASON;
  const longest = Math.max(...options.terms.map((term) => term.length));
  const channels = options.outputChannels ?? ['text'];
  const guard: Guard = {
    name: options.name ?? 'deny-list',
    onError: options.onError ?? 'closed',
    outputChannels: channels,
    holdback: { chars: longest + 1 },
  };
  if (options.input ?? true) {
    guard.input = (view) =>
      viewParts(view).some((part) => pattern.test(part.text)) ? { action: 'block', reason } : { action: 'allow' };
  }
  if (channels.length > 0) {
    guard.output = (view) => {
      const match = firstNewMatch(search, view.text, view.releasedLength, longest);
      // Before the end of a stream, a term touching the window's end may
      // still run on into a longer word: the next window decides.
      const conclusive = match !== undefined && (view.final || match.end < view.text.length);
      return conclusive ? { action: 'block', reason } : { action: 'allow' };
    };
  }
  return guard;
}
