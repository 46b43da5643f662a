/**
 * Finds the text of a messages `text_delta` event in its wire bytes, so a
 * translated stream can copy the JSON string literal into the chat chunk
 * without decoding, parsing and re-encoding it: a JSON string literal means
 * the same inside any JSON document.
 *
 * Only the compact shape the vendor sends is accepted
 * (`{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}`,
 * JSON spaces allowed before each closing brace), and only a literal that
 * `JSON.parse` would accept: valid escapes, no raw control characters,
 * valid UTF-8. Anything else is left to the decoding path, so both paths
 * give the same text.
 */
import { isUtf8 } from 'node:buffer';
import type { RawSseEvent } from '../sse/raw-sse-event.js';

/** A constant byte string, compared four bytes at a time (per-byte loops cost ~2.5 ns a byte here). */
class Pattern {
  readonly length: number;
  private readonly words: Uint32Array;
  private readonly tail: Buffer;

  constructor(text: string) {
    const bytes = Buffer.from(text);
    this.length = bytes.length;
    const wordCount = bytes.length >> 2;
    this.words = new Uint32Array(wordCount);
    for (let w = 0; w < wordCount; w++) this.words[w] = bytes.readUInt32LE(w * 4);
    this.tail = bytes.subarray(wordCount * 4);
  }

  /** Whether `view` holds the pattern at `at`, entirely before `end`. */
  at(view: DataView, at: number, end: number): boolean {
    if (end - at < this.length) return false;
    const { words, tail } = this;
    let i = at;
    for (let w = 0; w < words.length; w++, i += 4) {
      if (view.getUint32(i, true) !== words[w]) return false;
    }
    for (let t = 0; t < tail.length; t++) {
      if (view.getUint8(i + t) !== tail[t]) return false;
    }
    return true;
  }
}

const HEAD = new Pattern('{"type":"content_block_delta","index":');
const MIDDLE = new Pattern(',"delta":{"type":"text_delta","text":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;
/** Characters allowed after a backslash, besides `u`. */
const SIMPLE_ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
const MAX_INDEX_DIGITS = 9;

function isHex(code: number | undefined): boolean {
  return code !== undefined && ((code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66));
}

function isJsonSpace(code: number | undefined): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * The index just past the valid JSON string literal whose opening quote is
 * at `open`, or -1 when the literal is not valid JSON or does not end
 * before `end`.
 */
function literalEnd(buf: Buffer, open: number, end: number): number {
  let nonAscii = false;
  for (let i = open + 1; i < end; i++) {
    const code = buf[i] as number;
    if (code === QUOTE) {
      return nonAscii && !isUtf8(buf.subarray(open + 1, i)) ? -1 : i + 1;
    }
    if (code < 0x20) return -1;
    if (code >= 0x80) nonAscii = true;
    else if (code === BACKSLASH) {
      const next = buf[i + 1] as number;
      if (next === 0x75) {
        if (!(isHex(buf[i + 2]) && isHex(buf[i + 3]) && isHex(buf[i + 4]) && isHex(buf[i + 5]))) return -1;
        i += 5;
      } else if (SIMPLE_ESCAPES.has(next)) {
        i += 1;
      } else {
        return -1;
      }
    }
  }
  return -1;
}

/** Whether `buf[at, end)` is exactly two closing braces with optional JSON spaces around them. */
function twoClosingBraces(buf: Buffer, at: number, end: number): boolean {
  let braces = 0;
  for (let i = at; i < end; i++) {
    const code = buf[i];
    if (code === CLOSE_BRACE) braces++;
    else if (!isJsonSpace(code)) return false;
  }
  return braces === 2;
}

/**
 * Finds text literals in the events of one stream (it keeps a view of the
 * upstream buffer the events are in, so build one per stream).
 * @internal
 */
export class TextDeltaFinder {
  private buf: Buffer | undefined;
  private view: DataView | undefined;

  /**
   * The byte range of the text's JSON string literal (quotes included) when
   * the data of `raw` is a `content_block_delta` payload carrying a
   * `text_delta` in the compact shape; `undefined` otherwise. The event name
   * is not read: the translator goes by the payload's `type`, and the relay
   * offers only data events (never `error` or `message_stop`).
   */
  find(raw: RawSseEvent): { start: number; end: number } | undefined {
    const { buf, dataEnd } = raw;
    const view = this.viewOf(buf);
    if (!HEAD.at(view, raw.dataStart, dataEnd)) return undefined;
    let at = raw.dataStart + HEAD.length;
    const digitsStart = at;
    while (at < dataEnd && at - digitsStart < MAX_INDEX_DIGITS && (buf[at] as number) >= 0x30 && (buf[at] as number) <= 0x39) at++;
    const digits = at - digitsStart;
    // JSON numbers have no leading zeros.
    if (digits === 0 || (digits > 1 && buf[digitsStart] === 0x30)) return undefined;
    if (!MIDDLE.at(view, at, dataEnd)) return undefined;
    const open = at + MIDDLE.length - 1;
    const end = literalEnd(buf, open, dataEnd);
    if (end === -1 || !twoClosingBraces(buf, end, dataEnd)) return undefined;
    return { start: open, end };
  }

  /** A view of `buf`, made once per upstream read. */
  private viewOf(buf: Buffer): DataView {
    if (buf !== this.buf || this.view === undefined) {
      this.buf = buf;
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    return this.view;
  }
}
