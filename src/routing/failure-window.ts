/**
 * The outcomes of a target's last attempts, for the failure rule: how many
 * of the last `size` failed. A ring of one byte per attempt.
 *
 * @internal
 */
export class FailureWindow {
  private readonly outcomes: Uint8Array;
  private next = 0;
  private filled = 0;
  /** Failed attempts among the remembered ones. */
  failures = 0;

  constructor(readonly size: number) {
    this.outcomes = new Uint8Array(Math.max(1, size));
  }

  /** Remembers one attempt (the oldest is forgotten once full); returns the failures now in the window. */
  record(failed: boolean): number {
    const size = this.outcomes.length;
    if (this.filled === size) this.failures -= this.outcomes[this.next]!;
    else this.filled++;
    this.outcomes[this.next] = failed ? 1 : 0;
    if (failed) this.failures++;
    this.next = (this.next + 1) % size;
    return this.failures;
  }

  /** Forgets every attempt (a target that recovered starts afresh). */
  clear(): void {
    this.outcomes.fill(0);
    this.next = 0;
    this.filled = 0;
    this.failures = 0;
  }
}
