/**
 * Two stream translators in a row: every event the first writes is parsed
 * back into an `SseEvent` and pushed into the second, so a messages stream
 * reaches the Responses translator through the chat translator that
 * already exists. The first's `[DONE]` ends the second.
 *
 * Only `push` is exposed (never the first's `pushRaw` byte path, whose
 * output the second could not see).
 */
import { type EventSourceParser, createParser } from 'eventsource-parser';
import type { GatewayError } from '../errors.js';
import type { Redactor } from '../redact/redactor.js';
import type { SseEvent, TextStreamTransform } from './stream-transform.js';

/** `first` then `last`; `last` is exposed for what it offers beyond the transform contract. */
export class ChainedTransform<T extends TextStreamTransform> implements TextStreamTransform {
  private readonly parser: EventSourceParser;
  private readonly parsed: SseEvent[] = [];

  constructor(
    private readonly first: TextStreamTransform,
    readonly last: T,
  ) {
    this.parser = createParser({
      onEvent: (message) => {
        const event: SseEvent = { data: message.data };
        if (message.event !== undefined) event.event = message.event;
        if (message.id !== undefined) event.id = message.id;
        this.parsed.push(event);
      },
    });
  }

  useRedactor(redactor: Redactor): void {
    this.first.useRedactor?.(redactor);
    this.last.useRedactor?.(redactor);
  }

  push(event: SseEvent): string[] {
    return this.forward(this.first.push(event));
  }

  end(): string[] {
    const out = this.forward(this.first.end());
    out.push(...this.last.end());
    return out;
  }

  /** A failure goes straight to the last translator: the first's rendering of it would only be parsed back. */
  error(error: GatewayError): string[] {
    return [...this.last.error(error)];
  }

  private forward(chunks: Iterable<string>): string[] {
    const out: string[] = [];
    for (const chunk of chunks) {
      this.parser.feed(chunk);
      for (const event of this.parsed.splice(0)) {
        out.push(...(event.data === '[DONE]' ? this.last.end() : this.last.push(event)));
      }
    }
    return out;
  }
}

/** Chains two translators (see {@link ChainedTransform}). */
export function chainTransforms<T extends TextStreamTransform>(first: TextStreamTransform, last: T): ChainedTransform<T> {
  return new ChainedTransform(first, last);
}
