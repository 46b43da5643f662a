/**
 * Learns a stream's response id, model and finish reasons while it is
 * relayed, decoding as few events as possible: messages streams say them in
 * `message_start` and `message_delta` (which the usage observer decodes
 * anyway); chat streams in every chunk (only the first is decoded) and in
 * the chunks with a string `finish_reason` (found by a byte search of the
 * compact form `"finish_reason":"`, which chat servers write).
 *
 * @internal
 */
import type { SseEvent } from '../sse/parse-sse.js';
import type { RawSseEvent } from '../sse/raw-sse-event.js';
import type { UsageObserver } from '../sse/usage-observer.js';
import type { WireFormat } from '../types.js';
import { mergeResponseMeta, type ResponseMeta } from './genai-attributes.js';

// Compact JSON, as chat servers write their chunks: `"finish_reason":null` (every other chunk) does not match,
// so a buffer without a finish costs one search rather than one per event.
const FINISH_STRING_BYTES = Buffer.from('"finish_reason":"');
const FINISH_STRING = /"finish_reason"\s*:\s*"/;

/** For one chat stream: true for events whose data holds `"finish_reason":"`; each buffer is searched once. */
function finishReasonScanner(): (raw: RawSseEvent) => boolean {
  let buf: Buffer | undefined;
  let next = -1;
  return (raw) => {
    if (raw.buf !== buf || (next !== -1 && next < raw.dataStart)) {
      buf = raw.buf;
      next = buf.indexOf(FINISH_STRING_BYTES, raw.dataStart);
    }
    return next !== -1 && next < raw.dataEnd;
  };
}

/** A usage observer that also fills `meta` (same `observe` / `observes` contract). */
export interface StreamObserver extends UsageObserver {
  readonly meta: ResponseMeta;
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** Extends `usage` (the upstream's format `format`) with the response meta. */
export function withResponseMeta(usage: UsageObserver, format: WireFormat): StreamObserver {
  const meta: ResponseMeta = {};
  if (format === 'messages') {
    return {
      meta,
      usage: usage.usage,
      observes: (raw) => usage.observes(raw),
      observe(event: SseEvent) {
        usage.observe(event);
        if (event.event === 'message_start' || event.event === 'message_delta') mergeResponseMeta(meta, format, parse(event.data));
      },
    };
  }
  const finishes = finishReasonScanner();
  let first = true;
  return {
    meta,
    usage: usage.usage,
    observes(raw) {
      // `finishes` is called for every event so that it tracks its position in the buffer.
      const finish = finishes(raw);
      const wanted = first || finish;
      first = false;
      return usage.observes(raw) || wanted;
    },
    observe(event: SseEvent) {
      usage.observe(event);
      if (meta.id === undefined || FINISH_STRING.test(event.data)) mergeResponseMeta(meta, format, parse(event.data));
    },
  };
}
