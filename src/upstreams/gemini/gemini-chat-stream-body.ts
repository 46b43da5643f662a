/**
 * Gemini's SSE (`streamGenerateContent?alt=sse`) → the chat-completion
 * chunk SSE the gateway relays, one Gemini chunk at a time
 * (`GeminiToChatStream`). What fails before the first chat event (Google's
 * error envelope as the first event, a blocked prompt) is returned as an
 * HTTP error instead: a 429 or 503 is then retried and failed over like any
 * upstream's, and a blocked prompt is the caller's 400, not a stream that
 * starts as a success.
 *
 * @internal
 */
import type { GatewayError } from '../../errors.js';
import { parseSse, type SseEvent } from '../../sse/parse-sse.js';
import { blockedPromptError } from './gemini-blocked-prompt.js';
import type { GeminiToChatStream } from './gemini-to-chat-stream.js';
import type { GeminiGenerateContentResponse } from './gemini-types.js';
import { geminiFailureToError, googleErrorOf, parseGeminiError } from './read-gemini-error.js';

const ENCODER = new TextEncoder();

/** How a Gemini stream opened: a failure to answer as an HTTP error, or the chat SSE body. */
export type OpenedGeminiStream = { kind: 'failed'; error: GatewayError } | { kind: 'stream'; body: GeminiChatSseBody };

/** The event's JSON, or `undefined` for data that is not JSON (the translator refuses it). */
function payloadOf(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    return undefined;
  }
}

/** A failure that leaves nothing to stream: Google's error envelope, or a blocked prompt. */
function failureOf(payload: unknown, upstream: string, redact: (text: string) => string): GatewayError | undefined {
  if (googleErrorOf(payload) !== undefined) return geminiFailureToError(parseGeminiError(payload), upstream, redact);
  if (typeof payload !== 'object' || payload === null) return undefined;
  return blockedPromptError(payload as GeminiGenerateContentResponse);
}

/** The chat SSE body: the events read while opening, then the rest as Gemini sends them. */
export class GeminiChatSseBody implements AsyncIterable<Uint8Array> {
  constructor(
    private readonly head: readonly string[],
    private readonly events: AsyncIterator<SseEvent>,
    private readonly translator: GeminiToChatStream,
    private readonly source: AsyncIterable<Uint8Array>,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    if (this.head.length > 0) yield ENCODER.encode(this.head.join(''));
    while (!this.translator.closed) {
      const next = await this.events.next();
      const out = next.done ? this.translator.end() : this.translator.push(payloadOf(next.value));
      if (out.length > 0) yield ENCODER.encode(out.join(''));
    }
    // Whatever Gemini sends after the end (or an error) is not read.
    await this.events.return?.(undefined);
  }

  /** Aborts the upstream response (the relay calls it when the client leaves). */
  destroy(): void {
    (this.source as { destroy?: () => void }).destroy?.();
  }
}

/**
 * Reads `source` up to the first chat event. Google's error envelope or a
 * blocked prompt before it is `failed`; anything else is the stream.
 */
export async function openGeminiStream(
  source: AsyncIterable<Uint8Array>,
  translator: GeminiToChatStream,
  options: { upstream: string; redact: (text: string) => string },
): Promise<OpenedGeminiStream> {
  const events = parseSse(source);
  let head: string[] = [];
  while (head.length === 0 && !translator.closed) {
    const next = await events.next();
    if (next.done) {
      head = translator.end();
      break;
    }
    const payload = payloadOf(next.value);
    const failure = failureOf(payload, options.upstream, options.redact);
    if (failure !== undefined) {
      await events.return(undefined);
      return { kind: 'failed', error: failure };
    }
    head = translator.push(payload);
  }
  return { kind: 'stream', body: new GeminiChatSseBody(head, events, translator, source) };
}
