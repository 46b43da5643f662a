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
