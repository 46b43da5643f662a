/**
 * Vertex's messages SSE, relayed event by event with `error` events
 * redacted: the gateway redacts with the secrets it knew when it was built,
 * and a Google token fetched later is only known here.
 *
 * @internal
 */

import { GatewayError } from '../../errors.js';
import { DEFAULT_SSE_MAX_BUFFER_SIZE } from '../../sse/parse-sse.js';

const ENCODER = new TextEncoder();

/** Characters of a blank line's end that may lie in text already held (`\r\n\r` of a `\r\n\r\n`). */
const BOUNDARY_REACH = 3;

/** The end of the last complete event in `text` (after its blank line), or -1. */
function lastBoundary(text: string): number {
  const lf = text.lastIndexOf('\n\n');
  const crlf = text.lastIndexOf('\r\n\r\n');
  return Math.max(lf === -1 ? -1 : lf + 2, crlf === -1 ? -1 : crlf + 4);
}

/** Redacts the error events among complete `events` (the others pass as they are). */
function redactErrors(events: string, redact: (text: string) => string): string {
  if (!events.includes('error')) return events;
  return events
    .split(/(?<=\r?\n\r?\n)/)
    .map((event) => (/^event:\s*error\b/m.test(event) || /"type"\s*:\s*"error"/.test(event) ? redact(event) : event))
    .join('');
}

/** The body with whole events only, error events redacted; a trailing partial event is flushed (redacted) at the end. */
export class VertexSseBody implements AsyncIterable<Uint8Array> {
  constructor(
    private readonly source: AsyncIterable<Uint8Array>,
    private readonly redact: (text: string) => string,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    const decoder = new TextDecoder();
    // The text of the event in progress, as decoded pieces joined once it is complete: searching or joining all
    // that is held on every read would be quadratic in an event that arrives in many reads.
    let pieces: string[] = [];
    let held = 0;
    /** The last characters held, where a blank line completed by the next read may start. */
    let edge = '';
    for await (const chunk of this.source) {
      const text = decoder.decode(chunk, { stream: true });
      const end = lastBoundary(edge + text) - edge.length;
      if (end < 0) {
        pieces.push(text);
        held += text.length;
        edge = (edge + text).slice(-BOUNDARY_REACH);
        // The relay refuses a larger event anyway; holding one here would be unbounded.
        if (held > DEFAULT_SSE_MAX_BUFFER_SIZE) {
          throw new GatewayError('UPSTREAM_ERROR', `The upstream stream sent an event larger than ${DEFAULT_SSE_MAX_BUFFER_SIZE} characters.`);
        }
        continue;
      }
      pieces.push(text.slice(0, end));
      const events = pieces.join('');
      const rest = text.slice(end);
      pieces = rest === '' ? [] : [rest];
      held = rest.length;
      edge = rest.slice(-BOUNDARY_REACH);
      yield ENCODER.encode(redactErrors(events, this.redact));
    }
    const last = pieces.join('') + decoder.decode();
    if (last !== '') yield ENCODER.encode(this.redact(last));
  }

  destroy(): void {
    (this.source as { destroy?: () => void }).destroy?.();
  }
}
