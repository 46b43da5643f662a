/**
 * Vertex's messages SSE, relayed event by event with `error` events
 * redacted: the gateway redacts with the secrets it knew when it was built,
 * and a Google token fetched later is only known here.
 *
 * @internal
 */

const ENCODER = new TextEncoder();

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
    let pending = '';
    for await (const chunk of this.source) {
      pending += decoder.decode(chunk, { stream: true });
      const end = lastBoundary(pending);
      if (end === -1) continue;
      const events = pending.slice(0, end);
      pending = pending.slice(end);
      yield ENCODER.encode(redactErrors(events, this.redact));
    }
    pending += decoder.decode();
    if (pending !== '') yield ENCODER.encode(this.redact(pending));
  }

  destroy(): void {
    (this.source as { destroy?: () => void }).destroy?.();
  }
}
