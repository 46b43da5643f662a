/**
 * One SSE event still in its wire bytes, as `SseSplitter` cut it out. Only
 * "regular" events become a `RawSseEvent`: `[event: <name>\n]data: <data>\n\n`
 * with LF line ends, exactly the bytes `formatSse` would write for them, so a
 * passthrough relay can forward the bytes as they came and read only what
 * it needs from them (the name, the first bytes of the data).
 */
import type { SseEvent } from './parse-sse.js';

// `ignoreBOM`: a U+FEFF inside a stream is data; the splitter strips the stream's leading BOM itself.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

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
    const data = decoder.decode(this.buf.subarray(this.dataStart, this.dataEnd));
    if (this.nameStart < 0) return { data };
    return { event: decoder.decode(this.buf.subarray(this.nameStart, this.nameEnd)), data };
  }
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
 * Fills `raw` when `buf[start, end)` (an LF-only event ending with its blank
 * line) is regular, and says whether it was. Anything else (comments, `id:`,
 * `retry:`, several data lines, no space after the colon, an empty name) is
 * left to the general parser.
 */
export function readRegularEvent(raw: RawSseEvent, buf: Buffer, start: number, end: number): boolean {
  let at = start;
  raw.nameStart = -1;
  raw.nameEnd = -1;
  if (asciiAt(buf, at, end, EVENT_PREFIX, false)) {
    const lineEnd = buf.indexOf(LF, at + EVENT_PREFIX.length);
    if (lineEnd === at + EVENT_PREFIX.length) return false;
    raw.nameStart = at + EVENT_PREFIX.length;
    raw.nameEnd = lineEnd;
    at = lineEnd + 1;
  }
  if (!asciiAt(buf, at, end, DATA_PREFIX, false)) return false;
  const dataStart = at + DATA_PREFIX.length;
  // The first line end after the data must be the one that precedes the blank line.
  if (buf.indexOf(LF, dataStart) !== end - 2) return false;
  raw.buf = buf;
  raw.start = start;
  raw.end = end;
  raw.dataStart = dataStart;
  raw.dataEnd = end - 2;
  return true;
}
