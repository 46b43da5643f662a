import { describe, expect, it } from 'vitest';
import { chatUsageToMessages, messagesUsageToChat } from '../../../src/translate/map-usage.js';

describe('usage mapping', () => {
  it('prompt_tokens counts fresh, cache-write and cache-read input; cached_tokens is the cache read', () => {
    expect(
      messagesUsageToChat({
        input_tokens: 12,
        cache_creation_input_tokens: 3000,
        cache_read_input_tokens: 2500,
        output_tokens: 40,
        output_tokens_details: { thinking_tokens: 25 },
      }),
    ).toEqual({
      prompt_tokens: 5512,
      completion_tokens: 40,
      total_tokens: 5552,
      prompt_tokens_details: { cached_tokens: 2500 },
      completion_tokens_details: { reasoning_tokens: 25 },
    });
  });

  it('null counters count as zero', () => {
    expect(messagesUsageToChat({ input_tokens: 5, output_tokens: 1, cache_read_input_tokens: null })).toMatchObject({
      prompt_tokens: 5,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it('reverse: input_tokens excludes the cached part', () => {
    expect(chatUsageToMessages({ prompt_tokens: 100, completion_tokens: 7, total_tokens: 107, prompt_tokens_details: { cached_tokens: 64 } })).toEqual({
      input_tokens: 36,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 64,
      output_tokens: 7,
    });
    expect(chatUsageToMessages(undefined)).toMatchObject({ input_tokens: 0, output_tokens: 0 });
  });
});
