/**
 * One SSE event still in its wire bytes, as `SseSplitter` cut it out. Only
 * "regular" events become a `RawSseEvent`: `[event: <name>\n]data: <data>\n\n`
 * with LF line ends, exactly the bytes `formatSse` would write for them, so a
 * passthrough relay can forward the bytes as they came and read only what
 * it needs from them (the name, the first bytes of the data).
 */
import type { SseEvent } from './parse-sse.js';

/** A regular event's location in a buffer. Valid only inside the callback that received it (it is reused). */
export class RawSseEvent {
  /** The buffer holding the event. */
  buf: Buffer = Buffer.alloc(0);
  /** First byte of the event. */
  start = 0;
  /** One past its blank line. */
  end = 0;
  /** The name's bytes, `-1` when the event has no `event:` line. */
  nameStart = -1;
  nameEnd = -1;
  /** The data's bytes (the text after `data: `, before its line end). */
  dataStart = 0;
  dataEnd = 0;

  /** True when the event name is exactly `name` (ASCII). */
  nameIs(name: string): boolean {
    return this.nameStart >= 0 && asciiAt(this.buf, this.nameStart, this.nameEnd, name, true);
  }

  /** True when the data starts with `prefix` (ASCII). */
  dataStartsWith(prefix: string): boolean {
    return asciiAt(this.buf, this.dataStart, this.dataEnd, prefix, false);
  }

  /** The event as text (decodes the name and the data). */
  toEvent(): SseEvent {
    // Buffer's own UTF-8 slice: no view object, no decoder state; it keeps a U+FEFF as data.
    const data = this.buf.toString('utf8', this.dataStart, this.dataEnd);
    if (this.nameStart < 0) return { data };
    // Streams repeat a handful of names: reuse the last one's string when the bytes match.
    if (asciiAt(this.buf, this.nameStart, this.nameEnd, this.lastName, true)) return { event: this.lastName, data };
    const event = this.buf.toString('utf8', this.nameStart, this.nameEnd);
    // Only ASCII names are kept: the byte comparison above is exact for them alone.
    if (event.length === this.nameEnd - this.nameStart) this.lastName = event;
    return { event, data };
  }

  private lastName = '';
}

/** Whether `buf[start, end)` starts with (or, when `whole`, equals) the ASCII text `text`. */
function asciiAt(buf: Buffer, start: number, end: number, text: string, whole: boolean): boolean {
  const length = text.length;
  if (whole ? end - start !== length : end - start < length) return false;
  for (let i = 0; i < length; i++) {
    if (buf[start + i] !== text.charCodeAt(i)) return false;
  }
  return true;
}

const LF = 0x0a;
const EVENT_PREFIX = 'event: ';
const DATA_PREFIX = 'data: ';

/**
 * Reads the event starting at `buf[start]` (LF line ends only) when it is
 * regular and its blank line is inside `buf`: fills `raw` and returns the
 * index after the blank line. Returns -1 otherwise: the event is incomplete,
 * or irregular (comments, `id:`, `retry:`, several data lines, no space
 * after the colon, an empty name) and left to the general parser.
 * It finds the event's end itself, so a regular event is scanned once.
 */
export function readRegularEvent(raw: RawSseEvent, buf: Buffer, start: number): number {
  let at = start;
  let nameStart = -1;
  let nameEnd = -1;
  if (asciiAt(buf, at, buf.length, EVENT_PREFIX, false)) {
    nameStart = at + EVENT_PREFIX.length;
    nameEnd = buf.indexOf(LF, nameStart);
    if (nameEnd <= nameStart) return -1;
    at = nameEnd + 1;
  }
  if (!asciiAt(buf, at, buf.length, DATA_PREFIX, false)) return -1;
  const dataStart = at + DATA_PREFIX.length;
  const dataEnd = buf.indexOf(LF, dataStart);
  if (dataEnd === -1 || buf[dataEnd + 1] !== LF) return -1;
  raw.buf = buf;
  raw.start = start;
  raw.end = dataEnd + 2;
  raw.nameStart = nameStart;
  raw.nameEnd = nameEnd;
  raw.dataStart = dataStart;
  raw.dataEnd = dataEnd;
  return raw.end;
}
