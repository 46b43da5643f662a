/**
 * InvokeModelWithResponseStream's answer (`application/vnd.amazon.eventstream`)
 * → the messages SSE text the relay already handles. Frames are cut from the
 * bytes as they arrive and decoded by the smithy codec, which checks both
 * CRCs; each `chunk` event carries one messages event, base64-encoded, which
 * goes out as `event: <type>` / `data: <json>`. The events of the frames one
 * upstream read completes go out together, as one chunk (one socket write),
 * as a passthrough relays the upstream's packets. An exception frame becomes
 * an SSE `error` event and ends the stream; a corrupt or oversized frame
 * fails it.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ResponseStream.html
 * @internal
 */
import type { EventStreamCodec, Message } from '@smithy/core/event-streams';
import { GatewayError } from '../../errors.js';
import { mapBedrockError, messagesErrorJson } from './bedrock-errors.js';
import { EventStreamFrames, FrameLengthError } from './event-stream-frames.js';

/** Largest frame accepted (Bedrock's are a few KiB); a larger length is taken as corruption. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const UTF8 = new TextDecoder();
const ENCODER = new TextEncoder();
let codec: Promise<EventStreamCodec> | undefined;
/** The codec, loaded on first use: apps that never stream from Bedrock do not pay for it at start-up. */
function loadCodec(): Promise<EventStreamCodec> {
  codec ??= import('@smithy/core/event-streams').then(
    ({ EventStreamCodec }) =>
      new EventStreamCodec(
        (bytes) => UTF8.decode(bytes),
        (text) => ENCODER.encode(text),
      ),
  );
  return codec;
}

/**
 * What decoding yields: the SSE text of the messages events of consecutive
 * frames (those one upstream read completed), or a failure the upstream
 * reported.
 */
export type StreamItem = { kind: 'event'; sse: string } | { kind: 'exception'; exception: string; message: string };

function corrupt(upstream: string, what: string): GatewayError {
  return new GatewayError('UPSTREAM_ERROR', `Upstream "${upstream}" sent a corrupt event stream: ${what}.`);
}

/** The whole frames each read of the byte stream completes (none for a read inside a frame), however the bytes were split. */
async function* framesOf(source: AsyncIterable<Uint8Array>, upstream: string): AsyncGenerator<Uint8Array[], void, undefined> {
  const splitter = new EventStreamFrames(MAX_FRAME_BYTES);
  for await (const chunk of source) {
    let frames: Uint8Array[];
    try {
      frames = splitter.push(chunk);
    } catch (error) {
      if (error instanceof FrameLengthError) throw corrupt(upstream, error.message);
      throw error;
    }
    if (frames.length > 0) yield frames;
  }
  if (splitter.pending > 0) throw corrupt(upstream, 'it ended inside a frame');
}

function header(message: Message, name: string): string | undefined {
  const value = message.headers[name];
  return value?.type === 'string' ? value.value : undefined;
}

function payloadMessage(body: Uint8Array): string | undefined {
  try {
    const json = JSON.parse(UTF8.decode(body)) as { message?: unknown; Message?: unknown };
    const message = json.message ?? json.Message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** A `chunk` event's payload `{"bytes":"<base64>", "p": …}` → SSE text; `undefined` for a payload without bytes. */
function chunkToSse(body: Uint8Array, upstream: string): string | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(UTF8.decode(body));
  } catch {
    throw corrupt(upstream, 'a chunk whose payload is not JSON');
  }
  const bytes = (payload as { bytes?: unknown } | null)?.bytes;
  if (typeof bytes !== 'string') return undefined;
  const text = Buffer.from(bytes, 'base64').toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw corrupt(upstream, 'a chunk whose event is not JSON');
  }
  const type = (event as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !/^[\w.-]+$/.test(type)) throw corrupt(upstream, 'a chunk whose event has no type');
  // One `data:` line: the text as sent when it holds no line break, else re-serialised.
  const data = /[\r\n]/.test(text) ? JSON.stringify(event) : text;
  return `event: ${type}\ndata: ${data}\n\n`;
}

/** One frame as an item: a `chunk` event's SSE text, an exception, or `undefined` for a frame of no interest. */
function decodeFrame(decoder: EventStreamCodec, frame: Uint8Array, upstream: string): StreamItem | undefined {
  let message: Message;
  try {
    message = decoder.decode(frame);
  } catch (error) {
    throw corrupt(upstream, error instanceof Error && /checksum/i.test(error.message) ? 'a frame failed its CRC check' : 'a frame could not be decoded');
  }
  const type = header(message, ':message-type');
  if (type === 'event') {
    if (header(message, ':event-type') !== 'chunk') return undefined;
    const sse = chunkToSse(message.body, upstream);
    return sse === undefined ? undefined : { kind: 'event', sse };
  }
  if (type === 'exception') {
    const exception = header(message, ':exception-type') ?? 'internalServerException';
    return { kind: 'exception', exception, message: payloadMessage(message.body) ?? exception };
  }
  if (type === 'error') {
    const code = header(message, ':error-code') ?? 'internalServerException';
    return { kind: 'exception', exception: code, message: header(message, ':error-message') ?? code };
  }
  return undefined;
}

/**
 * The decoded frames of `source`: messages events (those of one read joined
 * into one item) and exceptions, in order.
 *
 * @throws GatewayError 502 `UPSTREAM_ERROR` on a frame that fails its CRC,
 *   is cut short or is oversized, or a chunk that is not a messages event
 *   (after the sound events before it).
 */
export async function* decodeBedrockStream(source: AsyncIterable<Uint8Array>, upstream: string): AsyncGenerator<StreamItem, void, undefined> {
  const decoder = await loadCodec();
  for await (const frames of framesOf(source, upstream)) {
    // The events of this read, joined: one chunk for the relay to write instead of one per event.
    let sse = '';
    for (const frame of frames) {
      let item: StreamItem | undefined;
      try {
        item = decodeFrame(decoder, frame, upstream);
      } catch (error) {
        // The sound events before a bad frame still go out first, as they would in reads of their own.
        if (sse !== '') yield { kind: 'event', sse };
        throw error;
      }
      if (item === undefined) continue;
      if (item.kind === 'event') {
        sse += item.sse;
        continue;
      }
      if (sse !== '') yield { kind: 'event', sse };
      sse = '';
      yield item;
    }
    if (sse !== '') yield { kind: 'event', sse };
  }
}

/** An exception as the SSE `error` event of the messages format. */
export function exceptionToSse(item: Extract<StreamItem, { kind: 'exception' }>, redact: (text: string) => string): string {
  const mapped = mapBedrockError(item.exception, 500);
  return `event: error\ndata: ${messagesErrorJson(mapped.type, redact(item.message))}\n\n`;
}

/**
 * The SSE body of a stream whose first item is `first` (already read, to
 * turn an opening exception into an HTTP error): one chunk of SSE bytes per
 * item (the events of one upstream read); an exception ends it after its
 * error event. `destroy()` closes the
 * upstream at once (the relay's abort).
 */
export class BedrockSseBody implements AsyncIterable<Uint8Array> {
  constructor(
    private readonly first: StreamItem | undefined,
    private readonly rest: AsyncGenerator<StreamItem, void, undefined>,
    private readonly redact: (text: string) => string,
    private readonly onDestroy: () => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      let item = this.first;
      while (item !== undefined) {
        if (item.kind === 'exception') {
          yield ENCODER.encode(exceptionToSse(item, this.redact));
          return;
        }
        yield ENCODER.encode(item.sse);
        const next = await this.rest.next();
        item = next.done ? undefined : next.value;
      }
    } finally {
      await this.rest.return(undefined);
    }
  }

  destroy(): void {
    this.onDestroy();
  }
}
