/**
 * Collects what the relay writes for one upstream read into one chunk, so
 * the client socket gets one write per read rather than one per event.
 *
 * Parts are kept as references (buffer, start, end) until `take`:
 * - adjacent byte ranges of one buffer merge, so relaying a read of regular
 *   events unchanged costs no copy at all (one view of the upstream buffer);
 * - several parts are copied once into one new buffer, without making a
 *   view per part (a view costs more than copying a short range here).
 */
/** Ranges up to this length are copied byte by byte; longer ones by `set` over a view. */
const SHORT_RANGE = 16;
/** A last range this long is handed out as a view by `takeInto`, not copied. */
const LARGE_VIEW = 8 * 1024;

export class ChunkBuilder {
  private bufs: Array<Buffer | string> = [];
  private starts: number[] = [];
  private ends: number[] = [];
  private strings = 0;
  private bytes = 0;

  /** Appends `buf[start, end)` (kept by reference: the buffer must not change before `take`). */
  addBytes(buf: Buffer, start: number, end: number): void {
    const last = this.bufs.length - 1;
    if (last >= 0 && this.bufs[last] === buf && this.ends[last] === start) {
      this.ends[last] = end;
    } else {
      this.bufs.push(buf);
      this.starts.push(start);
      this.ends.push(end);
    }
    this.bytes += end - start;
  }

  /** Appends a whole buffer (kept by reference). */
  addBuffer(buf: Buffer): void {
    this.addBytes(buf, 0, buf.length);
  }

  /** Appends text (encoded as UTF-8 by `take`), or bytes (kept by reference). */
  addText(text: string | Uint8Array): void {
    if (typeof text !== 'string') {
      this.addBuffer(Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength));
      return;
    }
    this.strings++;
    this.bufs.push(text);
    this.starts.push(0);
    this.ends.push(0);
  }

  /** Everything added since the last call, as one chunk; `undefined` when nothing was. */
  take(): Uint8Array | undefined {
    const { bufs, starts, ends } = this;
    const count = bufs.length;
    if (count === 0) return undefined;
    let out: Buffer;
    if (this.strings === count) {
      out = Buffer.from((bufs as string[]).join(''));
    } else if (count === 1) {
      out = (bufs[0] as Buffer).subarray(starts[0], ends[0]);
    } else {
      if (this.strings > 0) this.encodeStrings();
      out = this.copyParts();
    }
    this.bufs = [];
    this.starts = [];
    this.ends = [];
    this.strings = 0;
    this.bytes = 0;
    return out;
  }

  /**
   * Like `take`, pushing the result onto `out`, but a large last byte range
   * (at least `LARGE_VIEW` bytes, the bulk of a passthrough read that
   * started by completing an event held from the previous read) goes out as
   * a view of its own instead of being copied: two chunks, no copy of the
   * bulk. The writers send both in one socket write (Node corks a response
   * for the tick).
   */
  takeInto(out: Uint8Array[]): void {
    const last = this.bufs.length - 1;
    const tail = last > 0 ? this.bufs[last] : undefined;
    if (tail !== undefined && typeof tail !== 'string' && this.ends[last]! - this.starts[last]! >= LARGE_VIEW) {
      const view = tail.subarray(this.starts[last], this.ends[last]);
      this.bytes -= view.length;
      this.bufs.pop();
      this.starts.pop();
      this.ends.pop();
      const head = this.take();
      if (head !== undefined) out.push(head);
      out.push(view);
      return;
    }
    const chunk = this.take();
    if (chunk !== undefined) out.push(chunk);
  }

  /** Turns text parts into byte parts (rare: events that went through a decoding path). */
  private encodeStrings(): void {
    for (let i = 0; i < this.bufs.length; i++) {
      const part = this.bufs[i];
      if (typeof part !== 'string') continue;
      const encoded = Buffer.from(part);
      this.bufs[i] = encoded;
      this.ends[i] = encoded.length;
      this.bytes += encoded.length;
    }
  }

  private copyParts(): Buffer {
    const { bufs, starts, ends } = this;
    const out = Buffer.allocUnsafe(this.bytes);
    let at = 0;
    for (let i = 0; i < bufs.length; i++) {
      const buf = bufs[i] as Buffer;
      const start = starts[i] as number;
      const end = ends[i] as number;
      if (end - start <= SHORT_RANGE) {
        for (let j = start; j < end; j++) out[at++] = buf[j] as number;
        continue;
      }
      out.set(start === 0 && end === buf.length ? buf : buf.subarray(start, end), at);
      at += end - start;
    }
    return out;
  }
}
