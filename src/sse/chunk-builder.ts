/**
 * Collects what the relay writes for one upstream read into one chunk, so
 * the client socket gets one write per read rather than one per event.
 * Adjacent byte ranges of one buffer merge, so relaying a read of regular
 * events unchanged costs no copy at all.
 */
export class ChunkBuilder {
  private parts: Array<Buffer | string> = [];
  private strings = 0;
  private run: Buffer | undefined;
  private runStart = 0;
  private runEnd = 0;

  /** Appends `buf[start, end)` (kept by reference: the buffer must not change afterwards). */
  addBytes(buf: Buffer, start: number, end: number): void {
    if (buf === this.run && start === this.runEnd) {
      this.runEnd = end;
      return;
    }
    this.closeRun();
    this.run = buf;
    this.runStart = start;
    this.runEnd = end;
  }

  /** Appends text (encoded as UTF-8 by `take`). */
  addText(text: string | Uint8Array): void {
    this.closeRun();
    if (typeof text === 'string') this.strings++;
    this.parts.push(typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength));
  }

  /** Everything added since the last call, as one chunk; `undefined` when nothing was. */
  take(): Uint8Array | undefined {
    this.closeRun();
    const { parts } = this;
    if (parts.length === 0) return undefined;
    const strings = this.strings;
    this.parts = [];
    this.strings = 0;
    if (strings === parts.length) return Buffer.from(parts.join(''));
    if (parts.length === 1) return parts[0] as Buffer;
    return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
  }

  private closeRun(): void {
    if (this.run === undefined) return;
    this.parts.push(this.run.subarray(this.runStart, this.runEnd));
    this.run = undefined;
  }
}
