/**
 * The contract between the SSE relay and the stream translators of this
 * folder. `src/sse/relay-stream.ts` owns it (it drives every transform);
 * this module re-exports it so translator code and tests import it from
 * one place, and adds the payload parsing both translators share.
 */
export type { SseEvent } from '../sse/parse-sse.js';
export type { StreamTransform } from '../sse/relay-stream.js';
import type { GatewayError } from '../errors.js';
import type { SseEvent } from '../sse/parse-sse.js';
import type { StreamTransform } from '../sse/relay-stream.js';

/**
 * The translators' narrower form of `StreamTransform`: every output event
 * is a string (one whole encoded SSE event).
 */
export interface TextStreamTransform extends StreamTransform {
  push(event: SseEvent): Iterable<string>;
  end(): Iterable<string>;
  error(error: GatewayError): Iterable<string>;
}

/**
 * Parses an event's JSON payload; `undefined` when it is not a JSON object
 * (the caller turns that into a stream error). Tolerates the spaces the real
 * messages API pads its payloads with (`...}}      }`).
 * @internal
 */
export function parseEventData(event: SseEvent): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(event.data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const TEXT_DELTA_HEAD = /^\{"type":"content_block_delta","index":(\d{1,9}),"delta":\{"type":"text_delta","text":"/;
const TEXT_DELTA_TAIL = /^[ \t\n\r]*\}[ \t\n\r]*\}[ \t\n\r]*$/;

/**
 * Reads a messages `text_delta` event in the compact shape the vendor sends
 * (`{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}`,
 * padding spaces allowed) without building the whole object: translated
 * streams are mostly these. `undefined` for any other shape; the caller
 * then parses the event in full, so the result never differs from `JSON.parse`.
 * @internal
 */
export function readTextDelta(data: string): { index: number; text: string } | undefined {
  const head = TEXT_DELTA_HEAD.exec(data);
  if (head === null) return undefined;
  const open = head[0].length - 1;
  // The closing quote is the first one not escaped by an odd run of backslashes.
  let close = data.indexOf('"', open + 1);
  while (close !== -1) {
    let slashes = 0;
    while (data.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) break;
    close = data.indexOf('"', close + 1);
  }
  if (close === -1 || !TEXT_DELTA_TAIL.test(data.slice(close + 1))) return undefined;
  try {
    return { index: Number(head[1]), text: JSON.parse(data.slice(open, close + 1)) as string };
  } catch {
    return undefined;
  }
}
