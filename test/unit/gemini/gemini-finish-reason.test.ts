import { describe, expect, it } from 'vitest';
import { mapGeminiFinishReason } from '../../../src/upstreams/gemini/gemini-finish-reason.js';

// Google's FinishReason values (ai.google.dev/api/generate-content#FinishReason) against the chat finish_reason
// values of PROTOCOLS B.3: filters are content_filter, token limits are length.
describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['CONTINUATION', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['IMAGE_SAFETY', 'content_filter'],
    ['IMAGE_PROHIBITED_CONTENT', 'content_filter'],
    ['IMAGE_RECITATION', 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', 'failed'],
    ['UNEXPECTED_TOOL_CALL', 'failed'],
    ['TOO_MANY_TOOL_CALLS', 'failed'],
    ['LANGUAGE', 'stop'],
    ['OTHER', 'stop'],
    ['FINISH_REASON_UNSPECIFIED', 'stop'],
    ['A_REASON_FROM_NEXT_YEAR', 'stop'],
    [undefined, 'stop'],
  ])('%s → %s', (reason, expected) => {
    expect(mapGeminiFinishReason(reason, false)).toBe(expected);
  });

  it('an ordinary stop after function calls is tool_calls; a filter or a limit stays what it is', () => {
    expect(mapGeminiFinishReason('STOP', true)).toBe('tool_calls');
    expect(mapGeminiFinishReason(undefined, true)).toBe('tool_calls');
    expect(mapGeminiFinishReason('SAFETY', true)).toBe('content_filter');
    expect(mapGeminiFinishReason('MAX_TOKENS', true)).toBe('length');
  });
});
