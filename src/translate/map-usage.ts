/**
 * Token usage between the two formats.
 *
 * The messages `input_tokens` excludes cached tokens (PROTOCOLS A.5), so the
 * chat `prompt_tokens` is the sum of fresh, cache-write and cache-read
 * input; `prompt_tokens_details.cached_tokens` is the cache read.
 */
import type { ChatUsage, MessagesUsage } from '../schemas/index.js';

/** Counters of a messages usage object, as a stream accumulates them (all optional). */
export type MessagesUsageCounts = Partial<
  Pick<MessagesUsage, 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'output_tokens_details'>
>;

/**
 * Messages usage → chat usage: `prompt_tokens` = input + cache creation +
 * cache read, `completion_tokens` = output, `total_tokens` = both,
 * `prompt_tokens_details.cached_tokens` = cache read, and
 * `completion_tokens_details.reasoning_tokens` = `output_tokens_details.thinking_tokens`
 * when the vendor reports it. Missing counters count as 0.
 */
export function messagesUsageToChat(usage: MessagesUsageCounts): ChatUsage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const prompt = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + cacheRead;
  const completion = usage.output_tokens ?? 0;
  const out: ChatUsage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cacheRead },
  };
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') out.completion_tokens_details = { reasoning_tokens: thinking };
  return out;
}

/**
 * Chat usage → messages usage (the reverse direction): `input_tokens` =
 * prompt − cached, `cache_read_input_tokens` = cached,
 * `cache_creation_input_tokens` = 0 (chat does not report cache writes),
 * `output_tokens` = completion. A missing usage object (an upstream that
 * sent none) gives zeros; the vendor format requires the counters.
 */
export function chatUsageToMessages(usage: ChatUsage | null | undefined): MessagesUsage {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  const prompt = usage?.prompt_tokens ?? 0;
  const out: MessagesUsage = {
    input_tokens: Math.max(0, prompt - cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: usage?.completion_tokens ?? 0,
  };
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') out.output_tokens_details = { thinking_tokens: reasoning };
  return out;
}
