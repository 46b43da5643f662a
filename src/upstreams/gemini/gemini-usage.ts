/**
 * Gemini's `usageMetadata` → chat usage.
 *
 * `candidatesTokenCount` leaves out the thoughts, which are billed as
 * output too; `toolUsePromptTokenCount` (results of Google's own tools) is
 * billed as input beside `promptTokenCount`; `cachedContentTokenCount` is
 * part of `promptTokenCount`, so it is the chat `cached_tokens` as it is.
 *
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 * @internal
 */
import type { ChatUsage } from '../../schemas/index.js';
import type { GeminiUsageMetadata } from './gemini-types.js';

function count(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * `prompt_tokens` = prompt + tool-use prompt, `completion_tokens` =
 * candidates + thoughts, `total_tokens` = both,
 * `prompt_tokens_details.cached_tokens` = cached content,
 * `completion_tokens_details.reasoning_tokens` = thoughts. Missing counters
 * count as 0 (Gemini leaves out zero counts).
 */
export function geminiUsageToChat(usage: GeminiUsageMetadata | undefined): ChatUsage {
  const thoughts = count(usage?.thoughtsTokenCount);
  const prompt = count(usage?.promptTokenCount) + count(usage?.toolUsePromptTokenCount);
  const completion = count(usage?.candidatesTokenCount) + thoughts;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: count(usage?.cachedContentTokenCount) },
    completion_tokens_details: { reasoning_tokens: thoughts },
  };
}
