/**
 * How much of a caller's text (a model id, a principal id from `verify`)
 * the gateway copies into what it hands on: usage records, log lines, span
 * attributes and metric labels. The request itself is untouched; only these
 * copies are cut, so a long id cannot make every record, line and series
 * as long.
 *
 * @internal
 */

/** Characters of caller text kept in records, log lines and telemetry. */
export const CALLER_TEXT_LIMIT = 256;

/** Appended to text that was cut, so a reader knows it is not the whole id. */
export const TRUNCATION_MARKER = '…';

/**
 * `text` when it has at most {@link CALLER_TEXT_LIMIT} characters; else its
 * first {@link CALLER_TEXT_LIMIT} (one fewer rather than half a surrogate
 * pair) followed by {@link TRUNCATION_MARKER}.
 */
export function truncateCallerText(text: string): string {
  if (text.length <= CALLER_TEXT_LIMIT) return text;
  const last = text.charCodeAt(CALLER_TEXT_LIMIT - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? CALLER_TEXT_LIMIT - 1 : CALLER_TEXT_LIMIT;
  return text.slice(0, end) + TRUNCATION_MARKER;
}
