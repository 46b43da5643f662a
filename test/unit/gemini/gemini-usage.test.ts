import { describe, expect, it } from 'vitest';
import { chatUsageSchema } from '../../../src/schemas/index.js';
import { geminiUsageToChat } from '../../../src/upstreams/gemini/gemini-usage.js';
import { geminiJson } from '../../helpers/gemini-fixtures.js';

describe('geminiUsageToChat', () => {
  it('counts thoughts as output and reasoning, tool-use prompt as input, cached content as cached; the total is Google’s', () => {
    const usage = geminiJson('answer-text-thoughts').usageMetadata as Record<string, number>;
    const chat = geminiUsageToChat(usage);
    expect(chat).toEqual({
      prompt_tokens: 1180 + 38,
      completion_tokens: 30 + 154,
      total_tokens: 1402,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 154 },
    });
    // Google's totalTokenCount is prompt + tool-use prompt + candidates + thoughts: the same sum, told independently.
    expect(chat.total_tokens).toBe(usage.totalTokenCount);
    expect(chatUsageSchema.safeParse(chat).success).toBe(true);
  });

  it('a thinking model cut by MAX_TOKENS bills its thoughts although it wrote nothing', () => {
    const chat = geminiUsageToChat(geminiJson('answer-max-tokens-empty').usageMetadata as Record<string, number>);
    expect(chat.completion_tokens).toBe(499);
    expect(chat.total_tokens).toBe(519);
  });

  it('missing counters (Gemini leaves zeros out) and no usage at all count as 0', () => {
    expect(geminiUsageToChat({ promptTokenCount: 7 })).toEqual({
      prompt_tokens: 7,
      completion_tokens: 0,
      total_tokens: 7,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(geminiUsageToChat(undefined).total_tokens).toBe(0);
  });
});
