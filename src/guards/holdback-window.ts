/**
 * How far a stream's held text may go out before a guard has looked at
 * it: the holdback rule alone, before the guard's spans are considered.
 */
import { DEFAULT_HOLDBACK_CHARS, MAX_SENTENCE_CHARS, SENTENCE_CONTEXT_CHARS } from './guard-defaults.js';
import type { Holdback } from './guard-types.js';

/** A holdback as the stage applies it. */
export interface HoldbackRule {
  /** How much of a window may go out, as an offset in it; at most `from` when nothing may. */
  limit(window: string, from: number): number;
  /** Characters of sent text kept as the next window's context. */
  contextChars: number;
}

const SENTENCE_ENDS = new Set(['.', '!', '?', '…']);

/** True for the white space that can follow a sentence end. */
function isSpace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\u00a0';
}

/** The end of the last sentence in `window` after `from` (after its white space), or `from`. */
function lastSentenceEnd(window: string, from: number): number {
  for (let i = window.length - 1; i > from; i--) {
    const char = window[i]!;
    if (char === '\n') return i + 1;
    if (isSpace(char) && SENTENCE_ENDS.has(window[i - 1]!)) return i + 1;
  }
  return from;
}

/** The rule for a guard's `holdback` (default `{ chars: 64 }`). */
export function holdbackRule(holdback: Holdback | undefined): HoldbackRule {
  if (holdback === 'sentence') {
    return {
      contextChars: SENTENCE_CONTEXT_CHARS,
      limit: (window, from) => Math.max(lastSentenceEnd(window, from), window.length - MAX_SENTENCE_CHARS),
    };
  }
  const chars = holdback?.chars ?? DEFAULT_HOLDBACK_CHARS;
  return { contextChars: chars, limit: (window) => window.length - chars };
}
