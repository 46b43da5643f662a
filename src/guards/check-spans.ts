/**
 * Checks a guard's replacements before any is applied, so an invalid list
 * fails the guard instead of producing a corrupted text.
 */
import { GuardDecisionError } from './guard-decision-error.js';
import { MAX_REPLACEMENT_CHARS, MAX_REPLACEMENTS } from './guard-defaults.js';
import type { SpanReplacement } from './guard-types.js';

/** True when `index` falls between the two halves of a surrogate pair. */
export function splitsPair(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/**
 * Throws a {@link GuardDecisionError} unless a decision's replacements are
 * within bounds: at most `MAX_REPLACEMENTS`, writing at most
 * `MAX_REPLACEMENT_CHARS`.
 */
export function checkReplacementBudget(replacements: unknown): asserts replacements is readonly unknown[] {
  if (!Array.isArray(replacements)) throw new GuardDecisionError('replace decision without a replacements array');
  if (replacements.length > MAX_REPLACEMENTS) {
    throw new GuardDecisionError(`${replacements.length} replacements in one decision; at most ${MAX_REPLACEMENTS}`);
  }
  let chars = 0;
  for (const replacement of replacements) {
    const text = (replacement as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') throw new GuardDecisionError('a replacement without a string `text`');
    chars += text.length;
  }
  if (chars > MAX_REPLACEMENT_CHARS) {
    throw new GuardDecisionError(`replacements write ${chars} characters; at most ${MAX_REPLACEMENT_CHARS}`);
  }
}

/**
 * The spans on `text`, checked and sorted by start. Throws a
 * {@link GuardDecisionError} for a span whose offsets are not integers in
 * `[0, text.length]` with `start <= end`, that cuts a surrogate pair, that
 * overlaps another, or that starts where another starts (two insertions
 * at one offset have no order). `where` names the text in messages.
 */
export function checkSpans<S extends SpanReplacement>(spans: readonly S[], text: string, where: string): S[] {
  for (const span of spans) {
    const { start, end } = span;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > text.length) {
      throw new GuardDecisionError(`span [${String(start)}, ${String(end)}) is outside ${where} (length ${text.length})`);
    }
    if (splitsPair(text, start) || splitsPair(text, end)) {
      throw new GuardDecisionError(`span [${start}, ${end}) of ${where} cuts a character in two`);
    }
  }
  const sorted = spans.length < 2 ? [...spans] : [...spans].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    const current = sorted[i]!;
    if (current.start < previous.end || current.start === previous.start) {
      throw new GuardDecisionError(
        `spans [${previous.start}, ${previous.end}) and [${current.start}, ${current.end}) of ${where} overlap`,
      );
    }
  }
  return sorted;
}

/**
 * `text[from, to)` with the sorted, checked `spans` that lie in it
 * rewritten. Linear in the length of the range and the replacement text.
 */
export function spliceText(text: string, spans: readonly SpanReplacement[], from = 0, to = text.length): string {
  let out = '';
  let at = from;
  for (const span of spans) {
    if (span.start < from || span.end > to) continue;
    out += text.slice(at, span.start) + span.text;
    at = span.end;
  }
  return out + text.slice(at, to);
}
