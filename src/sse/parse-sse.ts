/**
 * Bytes → server-sent events, parsed once (STYLE 4) with eventsource-parser.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
import { createParser } from 'eventsource-parser';
import { GatewayError } from '../errors.js';

/** One server-sent event as parsed from (or written to) the wire. */
export interface SseEvent {
  /** The `event:` field; `undefined` when the event had none (chat streams). */
  event?: string;
  /** The `data:` lines joined with `\n`, exactly as sent (never JSON-parsed here). */
  data: string;
  /** The `id:` field, when sent. */
  id?: string;
}

/** Options of {@link parseSse}. */
export interface ParseSseOptions {
  /**
   * Most characters one pending line plus one pending event may hold before
   * the stream is given up as malformed. Default 4 MiB (4,194,304).
   */
  maxBufferSize?: number;
}

/** Default of {@link ParseSseOptions.maxBufferSize}. */
export const DEFAULT_SSE_MAX_BUFFER_SIZE = 4 * 1024 * 1024;

/**
 * Parses an SSE byte stream into events as they complete.
 *
 * Correct at any chunk boundary, including inside a multibyte UTF-8
 * character or between the `\r` and `\n` of a line end (a streaming
 * `TextDecoder` carries partial characters over). Comments and `retry:`
 * fields are dropped; an event left unterminated when the stream ends is
 * discarded, as the SSE spec says. Reads the body only as fast as events are
 * consumed, so a slow consumer never makes it buffer more than one chunk.
 *
 * @throws GatewayError `UPSTREAM_ERROR` when an event outgrows
 *   `maxBufferSize`; this is fatal because a parser that skipped part of an
 *   event could no longer tell where the next one starts.
 */
export async function* parseSse(
  body: AsyncIterable<Uint8Array>,
  options: ParseSseOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const maxBufferSize = options.maxBufferSize ?? DEFAULT_SSE_MAX_BUFFER_SIZE;
  const ready: SseEvent[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (event) => {
      ready.push(event);
    },
    onError: (error) => {
      // Unknown fields and bad `retry:` values are ignorable per the SSE spec.
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
    maxBufferSize,
  });
  const decoder = new TextDecoder('utf-8');

  const feed = (text: string): void => {
    if (text === '') return;
    parser.feed(text);
    if (overflow) {
      throw new GatewayError(
        'UPSTREAM_ERROR',
        `The upstream stream sent an event larger than ${maxBufferSize} characters.`,
      );
    }
  };

  for await (const chunk of body) {
    feed(decoder.decode(chunk, { stream: true }));
    if (ready.length === 0) continue;
    // Events are handed out before the next chunk is read: that is what keeps
    // memory bounded when the consumer is slow.
    for (let i = 0; i < ready.length; i++) yield ready[i] as SseEvent;
    ready.length = 0;
  }
  feed(decoder.decode());
  for (const event of ready) yield event;
}
