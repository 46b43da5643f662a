/**
 * What the user wrote in their last turn, as the simulator quotes it and
 * fills tool arguments from it. Agent clients put wrapper blocks (a
 * `<system-reminder>…</system-reminder>` block, say) next to the user's
 * words in the same turn; those are context, not the request.
 */

/** A text that is one element from start to end: `<tag …>…</tag>`, surrounding whitespace aside. */
const WRAPPER = /^\s*<([A-Za-z][\w:-]*)(?:\s[^>]*)?>[\s\S]*<\/\1>\s*$/;

/** True when `text` is a wrapper block rather than words the user typed. */
export function isWrapperText(text: string): boolean {
  return WRAPPER.test(text);
}

/**
 * The user's words among the text blocks of one turn: the last block that
 * is not a wrapper. When every block is a wrapper (or there is one block),
 * all the text, joined by newlines.
 */
export function userWordsOf(texts: readonly string[]): string {
  const present = texts.filter((text) => text.length > 0);
  for (let i = present.length - 1; i >= 0; i -= 1) {
    const text = present[i] as string;
    if (!isWrapperText(text)) return text;
  }
  return present.join('\n');
}
