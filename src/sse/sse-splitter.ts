/**
 * Cuts an SSE byte stream into events without decoding it when it can: the
 * fast path of the relay (a passthrough relay forwards the upstream's bytes
 * as they came, cut at event ends).
 *
 * While the stream uses LF line ends only (what every known upstream sends),
 * events end at the first `\n\n` and regular ones (see `readRegularEvent`)
 * go out as byte ranges; an irregular event (a comment, an `id:`, several
 * data lines) is parsed on its own by eventsource-parser, which is exact
 * because the parser is between events at every cut. The first CR byte
 * (CRLF or CR line ends) switches the rest of the stream to the general
 * parser: raw JSON never holds a CR, so this costs nothing on real streams.
 * Cuts are at ASCII bytes, so a multibyte character is never split.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { GatewayError } from '../errors.js';
import type { SseEvent } from './parse-sse.js';
import { RawSseEvent, readRegularEvent } from './raw-sse-event.js';

/** Receives the events of one chunk, in order. Returning false skips the rest of the chunk. */
export interface SseSink {
  /** A regular event, still in bytes (`raw` is reused: read it before returning). */
  onRaw(raw: RawSseEvent): boolean;
  /** Any other event, parsed. */
  onParsed(event: SseEvent): boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const BLANK_LINE = Buffer.from('\n\n');
/** `emit`: the sink asked to stop. */
const STOP = -2;

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * The JavaScript string length of UTF-8 bytes (what the parser's limit
 * counts): one per byte that starts a character, two for 4-byte ones.
 * Exact for valid UTF-8, whatever the chunk boundaries.
 */
function utf16Length(buf: Buffer): number {
  let length = 0;
  for (let i = 0; i < buf.length; i++) {
    const byte = buf[i] as number;
    if ((byte & 0xc0) !== 0x80) length += byte >= 0xf0 ? 2 : 1;
  }
  return length;
}

function hasBom(buf: Buffer, at: number): boolean {
  return buf[at] === 0xef && buf[at + 1] === 0xbb && buf[at + 2] === 0xbf;
}

/** Incremental SSE splitter for one stream. */
export class SseSplitter {
  private readonly raw = new RawSseEvent();
  private readonly parsed: SseEvent[] = [];
  /** The general parser, created on the first irregular event (most streams never need one). */
  private parser: EventSourceParser | undefined;
  private overflow = false;
  /** Bytes of an event not complete yet. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** UTF-16 length of the pending bytes, counted only past the limit in bytes (-1 before). */
  private pendingChars = -1;
  /** Set once a CR was seen: the rest of the stream goes through the general parser. */
  private decoder: InstanceType<typeof TextDecoder> | undefined;
  private atStreamStart = true;

  constructor(private readonly maxBufferSize: number) {}

  private generalParser(): EventSourceParser {
    if (this.parser !== undefined) return this.parser;
    this.parser = createParser({
      onEvent: (event) => {
        this.parsed.push(event.id === undefined ? { event: event.event, data: event.data } : event);
      },
      onError: (error) => {
        // Unknown fields and bad `retry:` values are ignorable per the SSE spec.
        if (error.type === 'max-buffer-size-exceeded') this.overflow = true;
      },
      maxBufferSize: this.maxBufferSize,
    });
    // The parser strips a BOM from its first input only; the stream's own BOM is handled here.
    this.parser.feed('');
    return this.parser;
  }

  /**
   * Splits `chunk` and hands every complete event to `sink`.
   *
   * @throws GatewayError `UPSTREAM_ERROR` when an event outgrows `maxBufferSize` characters.
   */
  push(chunk: Uint8Array, sink: SseSink): void {
    const buf = toBuffer(chunk);
    if (this.decoder === undefined && buf.indexOf(CR) !== -1) this.startGeneralParser();
    if (this.decoder !== undefined) {
      this.feedParser(this.decoder.decode(this.takePending(buf), { stream: true }), sink);
      return;
    }
    let from = 0;
    if (this.pendingBytes > 0) {
      // The blank line may straddle the two chunks.
      const last = this.pending[this.pending.length - 1] as Buffer;
      const straddles = last[last.length - 1] === LF && buf[0] === LF;
      const cut = straddles ? 0 : buf.indexOf(BLANK_LINE);
      if (cut === -1) {
        this.hold(buf);
        return;
      }
      from = straddles ? 1 : cut + 2;
      const event = this.takePending(buf.subarray(0, from));
      if (this.emit(event, this.skipStreamBom(event, 0), sink) === STOP) return;
    } else if (this.atStreamStart && buf.length >= 3) {
      from = this.skipStreamBom(buf, 0);
    }
    while (from < buf.length) {
      const end = this.emit(buf, from, sink);
      if (end === STOP) return;
      if (end === -1) break;
      from = end;
    }
    if (from < buf.length) this.hold(buf.subarray(from));
  }

  /**
   * Hands the event starting at `buf[start]` to `sink` when it is complete.
   * Returns the index after it, -1 when it is not complete, or `STOP`.
   */
  private emit(buf: Buffer, start: number, sink: SseSink): number {
    let end = readRegularEvent(this.raw, buf, start);
    if (end !== -1) return sink.onRaw(this.raw) ? end : STOP;
    const cut = buf.indexOf(BLANK_LINE, start);
    if (cut === -1) return -1;
    end = cut + 2;
    return this.feedParser(buf.toString('utf8', start, end), sink) ? end : STOP;
  }

  /** Where the stream's first event starts: after a leading BOM, which is not part of it. */
  private skipStreamBom(buf: Buffer, start: number): number {
    if (!this.atStreamStart) return start;
    this.atStreamStart = false;
    return hasBom(buf, start) ? start + 3 : start;
  }

  private feedParser(text: string, sink: SseSink): boolean {
    if (text !== '') this.generalParser().feed(text);
    if (this.overflow) throw this.tooLarge();
    const events = this.parsed;
    let go = true;
    for (let i = 0; go && i < events.length; i++) go = sink.onParsed(events[i] as SseEvent);
    events.length = 0;
    return go;
  }

  private startGeneralParser(): void {
    // A BOM at the very start is the stream's; one later on is data (as a streaming TextDecoder does it).
    this.decoder = new TextDecoder('utf-8', { ignoreBOM: !this.atStreamStart });
    this.atStreamStart = false;
  }

  private hold(buf: Buffer): void {
    this.pending.push(buf);
    this.pendingBytes += buf.length;
    // Bytes are at least characters: count characters only once the bytes pass the limit, chunk by chunk.
    if (this.pendingBytes <= this.maxBufferSize) return;
    if (this.pendingChars < 0) this.pendingChars = this.pending.reduce((sum, part) => sum + utf16Length(part), 0);
    else this.pendingChars += utf16Length(buf);
    if (this.pendingChars > this.maxBufferSize) throw this.tooLarge();
  }

  /** The pending bytes followed by `buf`, as one buffer; empties the pending list. */
  private takePending(buf: Buffer): Buffer {
    if (this.pendingBytes === 0) return buf;
    const joined = Buffer.concat([...this.pending, buf]);
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingChars = -1;
    return joined;
  }

  private tooLarge(): GatewayError {
    return new GatewayError('UPSTREAM_ERROR', `The upstream stream sent an event larger than ${this.maxBufferSize} characters.`);
  }
}
