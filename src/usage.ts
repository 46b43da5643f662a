/**
 * Usage records: one per model call, completed or aborted, for billing and
 * logs (the gateway's `onUsage` option). Model ids, which the caller
 * chooses, are cut to 256 characters followed by `…` (`truncateCallerText`):
 * a record never holds more of them, however long the request's.
 */
import type { CacheResult } from './cache/cache-types.js';
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
  /** Milliseconds from request start to the first upstream byte (on a cache hit, to the stored answer's); undefined when none arrived. */
  timeToFirstByteMs: number | undefined;
  /**
   * What the response cache did for this call: `'hit'` (answered from a
   * stored answer, no upstream call), `'miss'` (sent upstream) or `'bypass'`
   * (neither looked up nor stored). Absent when the request had no cache.
   *
   * On a hit the token fields are the stored answer's figures, the ones the
   * client sees in the answer's `usage`, but no upstream billed them: limits
   * charge a hit as a request only (no tokens, no budget spend). A record
   * that bills by tokens skips hits (`record.cache === 'hit'`).
   */
  cache?: CacheResult;
  /** On a cache hit: the stored answer's age in seconds (the response's `age` header). */
  cacheAgeSeconds?: number;
}
