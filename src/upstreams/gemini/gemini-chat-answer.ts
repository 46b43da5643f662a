/**
 * Gemini's HTTP answers → the chat-format answers the gateway relays: a
 * `chat.completion` JSON, a chat-completion chunk stream, or a chat error
 * body with the status Google meant. A blocked prompt, a broken function
 * call and an error in the stream's first event are HTTP errors (not a 200
 * stream that fails), so the status reaches the caller and retries,
 * fallbacks and cooldowns see it as they see any upstream's.
 *
 * @internal
 */
import { GatewayError, isGatewayError } from '../../errors.js';
import { MAX_UPSTREAM_JSON_BYTES } from '../../handlers/check-upstream-answer.js';
import { DEFAULT_SSE_MAX_BUFFER_SIZE, type SseEvent } from '../../sse/parse-sse.js';
import { SseSplitter, type SseSink } from '../../sse/sse-splitter.js';
import { readBody } from '../read-body.js';
import { withoutFraming } from '../request-body.js';
import type { UpstreamResponse } from '../upstream.js';
import { oneChunk } from '../bedrock/bedrock-errors.js';
import { blockedPromptError } from './gemini-blocked-prompt.js';
import { type GeminiToChatResponseOptions, geminiToChatResponse } from './gemini-to-chat-response.js';
import { GeminiToChatStream, type GeminiToChatStreamOptions } from './gemini-to-chat-stream.js';
import type { GeminiGenerateContentResponse } from './gemini-types.js';
import { chatErrorResponse, geminiFailureToError, googleErrorOf, parseGeminiError, readGeminiError } from './read-gemini-error.js';

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/** Options of {@link toChatJsonResponse}, {@link toChatErrorResponse} and {@link toChatSseResponse}. */
export interface GeminiAnswerOptions {
  /** The upstream's name, for error messages. */
  upstream: string;
  /** Hides secrets in Google's error messages. Default: nothing hidden. */
  redact?: (text: string) => string;
}

/** A Gemini error response (any status but 2xx) as a chat error response of the status Google meant. */
export async function toChatErrorResponse(response: UpstreamResponse, options: GeminiAnswerOptions): Promise<UpstreamResponse> {
  let bytes: Uint8Array = new Uint8Array();
  try {
    bytes = (await readBody(response.body)).bytes;
  } catch {
    // A body that fails to arrive still leaves the status to report.
  }
  const error = geminiFailureToError(readGeminiError(bytes, response.status), options.upstream, options.redact);
  return chatErrorResponse(error, withoutFraming(response.headers));
}

/**
 * A whole `generateContent` answer (2xx) as a `chat.completion` response,
 * or as the chat error response a blocked prompt (400) or a broken answer
 * (502) is told with.
 */
export async function toChatJsonResponse(response: UpstreamResponse, options: GeminiAnswerOptions & GeminiToChatResponseOptions): Promise<UpstreamResponse> {
  const headers = withoutFraming(response.headers);
  const { bytes, truncated } = await readBody(response.body, MAX_UPSTREAM_JSON_BYTES);
  if (truncated) {
    return chatErrorResponse(new GatewayError('UPSTREAM_ERROR', `Upstream "${options.upstream}" sent an answer larger than ${MAX_UPSTREAM_JSON_BYTES} bytes.`), headers);
  }
  let answer: GeminiGenerateContentResponse;
  try {
    answer = JSON.parse(DECODER.decode(bytes)) as GeminiGenerateContentResponse;
  } catch {
    return chatErrorResponse(new GatewayError('UPSTREAM_ERROR', `Upstream "${options.upstream}" sent an answer that is not JSON.`), headers);
  }
  try {
    const out = ENCODER.encode(JSON.stringify(geminiToChatResponse(answer, options)));
    return { status: 200, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(out.byteLength) }, body: oneChunk(out) };
  } catch (error) {
    if (isGatewayError(error)) return chatErrorResponse(error, headers);
    throw error;
  }
}

/** The JSON payloads of the events each read completes (none for a read inside an event). */
async function* payloadsOf(source: AsyncIterable<Uint8Array>): AsyncGenerator<unknown[], void, undefined> {
  const splitter = new SseSplitter(DEFAULT_SSE_MAX_BUFFER_SIZE);
  let batch: unknown[] = [];
  const take = (event: SseEvent): boolean => {
    // Comments and keep-alives carry nothing; a payload that is not JSON is told by the translator.
    if (event.data === '' || event.data === '[DONE]') return true;
    try {
      batch.push(JSON.parse(event.data));
    } catch {
      batch.push(undefined);
    }
    return true;
  };
  const sink: SseSink = { onRaw: (raw) => take(raw.toEvent()), onParsed: take };
  for await (const chunk of source) {
    splitter.push(chunk, sink);
    if (batch.length === 0) continue;
    yield batch;
    batch = [];
  }
}

/**
 * The chat SSE body: one chunk of chat events per upstream read; it ends
 * after an error event. `destroy()` closes the upstream at once (the
 * relay's abort).
 */
export class GeminiChatSseBody implements AsyncIterable<Uint8Array> {
  constructor(
    private readonly first: unknown[] | undefined,
    private readonly rest: AsyncGenerator<unknown[], void, undefined>,
    private readonly translator: GeminiToChatStream,
    private readonly onDestroy: () => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      let batch = this.first;
      while (batch !== undefined) {
        const events = batch.flatMap((payload) => this.translator.push(payload));
        if (events.length > 0) yield ENCODER.encode(events.join(''));
        if (this.translator.closed) return;
        const next = await this.rest.next();
        batch = next.done ? undefined : next.value;
      }
      const last = this.translator.end();
      if (last.length > 0) yield ENCODER.encode(last.join(''));
    } catch (error) {
      const events = this.translator.fail(isGatewayError(error) ? error : new GatewayError('UPSTREAM_ERROR', 'The upstream stream could not be read.'));
      if (events.length > 0) yield ENCODER.encode(events.join(''));
    } finally {
      await this.rest.return(undefined);
    }
  }

  destroy(): void {
    this.onDestroy();
  }
}

/** The HTTP error an opening event stands for: a blocked prompt or Google's error envelope. */
function openingError(payload: unknown, options: GeminiAnswerOptions): GatewayError | undefined {
  if (googleErrorOf(payload) !== undefined) return geminiFailureToError(parseGeminiError(payload), options.upstream, options.redact);
  if (typeof payload !== 'object' || payload === null) return undefined;
  return blockedPromptError(payload as GeminiGenerateContentResponse);
}

/**
 * A `streamGenerateContent?alt=sse` answer (2xx) as a chat SSE response.
 * The first event is read before answering: a blocked prompt or an error
 * there (or a stream with no event at all) becomes an HTTP error response
 * of its status.
 */
export async function toChatSseResponse(response: UpstreamResponse, options: GeminiAnswerOptions & GeminiToChatStreamOptions): Promise<UpstreamResponse> {
  const headers = withoutFraming(response.headers);
  const batches = payloadsOf(response.body);
  const first = await batches.next();
  const opening = first.done
    ? new GatewayError('UPSTREAM_ERROR', `Upstream "${options.upstream}" ended its stream before any event.`)
    : openingError(first.value[0], options);
  if (opening !== undefined) {
    await batches.return(undefined);
    return chatErrorResponse(opening, headers);
  }
  const destroy = (): void => (response.body as { destroy?: () => void }).destroy?.();
  const translator = new GeminiToChatStream(options);
  return {
    status: response.status,
    headers: { ...headers, 'content-type': 'text/event-stream' },
    body: new GeminiChatSseBody(first.done ? undefined : first.value, batches, translator, destroy),
  };
}
