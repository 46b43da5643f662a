/**
 * Usage records: one per model call, completed or aborted, for billing and
 * logs (the gateway's `onUsage` option). Model ids, which the caller
 * chooses, are cut to 256 characters followed by `…` (`truncateCallerText`):
 * a record never holds more of them, however long the request's.
 */
import type { TokenUsage } from './sse/usage-observer.js';

export type { TokenUsage } from './sse/usage-observer.js';

export interface UsageRecord extends TokenUsage {
  requestId: string;
  /** Principal id of the caller (whole: it comes from the gateway's keys or `verify`). */
  principalId: string | undefined;
  /** The endpoint called: `chat.completions`, `messages`, `messages.count_tokens`, `responses.create`, `responses.input_tokens` or `embeddings` (its `inputTokens` are the inputs' tokens; it has no output tokens). */
  endpoint: string;
  /** The model id the caller asked for (cut to 256 characters + `…`). */
  model: string;
  /** The name of the upstream that answered (after fallbacks). */
  upstream: string | undefined;
  /** The model id that upstream was sent (after renames; cut to 256 characters + `…`). */
  upstreamModel: string | undefined;
  /** HTTP status sent to the client. */
  status: number;
  stream: boolean;
  /** True when the client went away before the end. */
  aborted: boolean;
  /** Milliseconds from request start to the end of the response. */
  latencyMs: number;
  /** Milliseconds from request start to the first upstream byte; undefined when none arrived. */
  timeToFirstByteMs: number | undefined;
}
