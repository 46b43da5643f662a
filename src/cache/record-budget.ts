/**
 * The byte budget of one stream recording, shared by the per-format
 * recorders: what they keep of a stream is counted as it is kept, so a
 * stream that outgrows the budget stops being recorded at once instead of
 * being held whole and measured at the end.
 *
 * @internal
 */

/** Counts the UTF-8 bytes a recording keeps against a limit. */
export class RecordBudget {
  private left: number;

  constructor(limit: number) {
    this.left = limit;
  }

  /** Counts `text` as kept; false once the total has passed the limit. */
  spend(text: string): boolean {
    this.left -= Buffer.byteLength(text);
    return this.left >= 0;
  }
}
