/**
 * Token counts for streamed chat passthrough calls. A chat upstream reports
 * a stream's usage only when asked (`stream_options.include_usage`), and
 * most callers do not ask, which would leave `onUsage` without tokens. So,
 * when `onUsage` is set, the gateway asks the upstream for usage and hides
 * the extra usage chunk from a caller who did not ask for it.
 *
 * @internal
 */
import type { GatewayError } from '../errors.js';
import type { ChatCompletionRequest } from '../schemas/index.js';
import { CHAT_DONE, encodeStreamError, formatSse } from '../sse/format-sse.js';
import type { SseEvent } from '../sse/parse-sse.js';
import type { RawSseEvent } from '../sse/raw-sse-event.js';
import type { SseByteSink, StreamTransform } from '../sse/relay-stream.js';
import { chatUsageScanner } from '../sse/usage-observer.js';

/** True when the gateway must add `include_usage` to learn a stream's tokens. */
export function needsStreamUsage(body: ChatCompletionRequest, wantsUsage: boolean): boolean {
  return wantsUsage && body.stream === true && body.stream_options?.include_usage !== true;
}

/** `body` asking the upstream for a final usage chunk. */
export function withStreamUsage(body: ChatCompletionRequest): ChatCompletionRequest {
  return { ...body, stream_options: { ...body.stream_options, include_usage: true } };
}

/** The final usage chunk has no choices; cheap text test first, then a parse. */
function isUsageOnlyChunk(data: string): boolean {
  if (!data.includes('"usage"') || !data.includes('"choices"')) return false;
  try {
    const chunk = JSON.parse(data) as { choices?: unknown; usage?: unknown };
    return Array.isArray(chunk.choices) && chunk.choices.length === 0 && typeof chunk.usage === 'object' && chunk.usage !== null;
  } catch {
    return false;
  }
}

/**
 * A chat → chat transform that relays every event unchanged except the
 * usage-only chunk, which the caller did not ask for. The usage observer
 * still sees it (it watches upstream events, before this transform).
 */
export function createUsageHidingTransform(): StreamTransform {
  const mayCarryUsage = chatUsageScanner();
  return {
    // Byte path: an event without a usage object goes out as it came.
    pushRaw: (raw: RawSseEvent, out: SseByteSink) => {
      if (mayCarryUsage(raw)) return false;
      out.addBytes(raw.buf, raw.start, raw.end);
      return true;
    },
    push: (event: SseEvent) => (isUsageOnlyChunk(event.data) ? [] : [formatSse(event)]),
    end: () => [CHAT_DONE],
    error: (error: GatewayError) => [encodeStreamError(error, 'chat')],
  };
}
