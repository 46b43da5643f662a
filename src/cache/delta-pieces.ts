/**
 * Cuts a long text into the pieces a replayed stream sends it in. One delta
 * would do for any client, but an operator's `maxBufferSize` bounds one
 * event, and a stream of bounded events also flows to the client as it is
 * written instead of in one block.
 *
 * @internal
 */

/** Most characters of text one replayed delta carries. */
export const MAX_DELTA_CHARS = 16 * 1024;

/** `text` in pieces of at most `max` characters (one piece, maybe empty, when it is short), never cutting a surrogate pair. */
export function deltaPieces(text: string, max = MAX_DELTA_CHARS): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let from = 0;
  while (from < text.length) {
    let to = Math.min(from + max, text.length);
    // A high surrogate at the end of a piece would leave its pair's halves in two JSON strings (each an invalid lone surrogate).
    const last = text.charCodeAt(to - 1);
    if (to < text.length && to - 1 > from && last >= 0xd800 && last <= 0xdbff) to--;
    pieces.push(text.slice(from, to));
    from = to;
  }
  return pieces;
}
