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
/** What a cleared part slot holds. */
const EMPTY = Buffer.alloc(0);

export class ChunkBuilder {
  // The parts are the first `count` entries: the arrays are kept from chunk to chunk (new
  // ones per chunk were most of a relayed event's garbage), their entries cleared by `take`.
  // Room for four parts to start with (a passthrough read is one), not the 16 a first push makes.
  private readonly bufs: Array<Buffer | string> = [EMPTY, EMPTY, EMPTY, EMPTY];
  private readonly starts: number[] = [0, 0, 0, 0];
  private readonly ends: number[] = [0, 0, 0, 0];
  private count = 0;
  private strings = 0;
  private bytes = 0;

  /** Appends `buf[start, end)` (kept by reference: the buffer must not change before `take`). */
  addBytes(buf: Buffer, start: number, end: number): void {
    const last = this.count - 1;
    if (last >= 0 && this.bufs[last] === buf && this.ends[last] === start) {
      this.ends[last] = end;
    } else {
      this.push(buf, start, end);
    }
    this.bytes += end - start;
  }

  private push(part: Buffer | string, start: number, end: number): void {
    const at = this.count++;
    this.bufs[at] = part;
    this.starts[at] = start;
    this.ends[at] = end;
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
    this.push(text, 0, 0);
  }

  /** Everything added since the last call, as one chunk; `undefined` when nothing was. */
  take(): Uint8Array | undefined {
    const { bufs, starts, ends, count } = this;
    if (count === 0) return undefined;
    let out: Buffer;
    if (this.strings === count) {
      out = Buffer.from(count === 1 ? (bufs[0] as string) : (bufs.slice(0, count) as string[]).join(''));
    } else if (count === 1) {
      out = (bufs[0] as Buffer).subarray(starts[0], ends[0]);
    } else {
      if (this.strings > 0) this.encodeStrings();
      out = this.copyParts();
    }
    // Cleared, not dropped: the arrays serve the next chunk; no part is held past its chunk.
    bufs.fill(EMPTY, 0, count);
    this.count = 0;
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
    const last = this.count - 1;
    const tail = last > 0 ? this.bufs[last] : undefined;
    if (tail !== undefined && typeof tail !== 'string' && this.ends[last]! - this.starts[last]! >= LARGE_VIEW) {
      const view = tail.subarray(this.starts[last], this.ends[last]);
      this.bytes -= view.length;
      this.bufs[last] = EMPTY;
      this.count = last;
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
    for (let i = 0; i < this.count; i++) {
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
    for (let i = 0; i < this.count; i++) {
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
