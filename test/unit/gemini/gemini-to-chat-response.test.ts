import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { chatCompletionResponseSchema } from '../../../src/schemas/index.js';
import type { GeminiGenerateContentResponse } from '../../../src/upstreams/gemini/gemini-types.js';
import { geminiToChatResponse } from '../../../src/upstreams/gemini/gemini-to-chat-response.js';
import { makeToolCallId, readToolCallId } from '../../../src/upstreams/gemini/thought-signature-carrier.js';
import { geminiJson } from '../../helpers/gemini-fixtures.js';

const answer = (name: Parameters<typeof geminiJson>[0]) => geminiJson(name) as GeminiGenerateContentResponse;
/** A stand-in seal: reversible and visible, so a test can see what was sealed. */
const seal = (signature: string): string => `sealed(${signature})`;

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('geminiToChatResponse', () => {
  it('joins text into content and thoughts into reasoning_content, with usage', () => {
    const chat = geminiToChatResponse(answer('answer-text-thoughts'), { model: 'gem-flash', created: 1700000000 });
    expect(chatCompletionResponseSchema.safeParse(chat).success).toBe(true);
    expect(chat).toMatchObject({
      id: 'chatcmpl-mZ1xaPrAEoGz1MkP0uKx8Ac',
      object: 'chat.completion',
      created: 1700000000,
      model: 'gem-flash',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Café culture in 日本 is quiet and precise ☕️🍰.',
            reasoning_content: '**Weighing the café question**\n\nThe user asks about 日本 and wants a short answer.',
          },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 1218, completion_tokens: 184, total_tokens: 1402 },
    });
    expect(chat.choices[0]!.message.tool_calls).toBeUndefined();
  });

  it('turns parallel calls of one function into tool calls with distinct ids, the first carrying its signature sealed', () => {
    const chat = geminiToChatResponse(answer('answer-parallel-calls'), { model: 'gem-3', sealSignature: seal });
    expect(chatCompletionResponseSchema.safeParse(chat).success).toBe(true);
    const choice = chat.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const calls = choice.message.tool_calls!;
    expect(calls.map((call) => call.function)).toEqual([
      { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
      { name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
    ]);
    const signature = ((answer('answer-parallel-calls').candidates![0]!.content!.parts[1]!) as { thoughtSignature: string }).thoughtSignature;
    expect(readToolCallId(calls[0]!.id)).toEqual({ signatureSeal: `sealed(${signature})` });
    expect(readToolCallId(calls[1]!.id)).toEqual({});
    // The ids are the carrier's for (responseId, position): distinct, and the same on every replay.
    expect(calls[1]!.id).toBe(makeToolCallId({ scope: 'Kx4yaJ-3BJWq1MkPzfe0kQw', index: 1 }));
    expect(calls[0]!.id.split('.')[0]).not.toBe(calls[1]!.id);
    const again = geminiToChatResponse(answer('answer-parallel-calls'), { model: 'gem-3', sealSignature: seal });
    expect(again.choices[0]!.message.tool_calls!.map((call) => call.id)).toEqual(calls.map((call) => call.id));
  });

  it('without a seal, leaves signatures out of the ids', () => {
    const chat = geminiToChatResponse(answer('answer-parallel-calls'), { model: 'gem-3' });
    for (const call of chat.choices[0]!.message.tool_calls!) expect(call.id).toMatch(/^call_[A-Za-z0-9_-]{16}$/);
  });

  it('keeps ids of identical calls distinct and stable when Gemini sends no responseId', () => {
    const call = { functionCall: { name: 'ping', args: {} } };
    const bare: GeminiGenerateContentResponse = { candidates: [{ content: { role: 'model', parts: [call, call] }, finishReason: 'STOP' }] };
    const ids = geminiToChatResponse(bare, { model: 'm' }).choices[0]!.message.tool_calls!.map((c) => c.id);
    expect(new Set(ids).size).toBe(2);
    expect(geminiToChatResponse(bare, { model: 'm' }).choices[0]!.message.tool_calls!.map((c) => c.id)).toEqual(ids);
  });

  it('answers one empty choice with finish length when thinking used up the tokens', () => {
    const chat = geminiToChatResponse(answer('answer-max-tokens-empty'), { model: 'm' });
    expect(chat.choices).toEqual([{ index: 0, message: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: 'length' }]);
    expect(chat.usage!.completion_tokens_details).toEqual({ reasoning_tokens: 499 });
  });

  it('maps a SAFETY finish to content_filter', () => {
    const safety: GeminiGenerateContentResponse = { candidates: [{ content: { role: 'model', parts: [{ text: 'partial' }] }, finishReason: 'SAFETY' }] };
    expect(geminiToChatResponse(safety, { model: 'm' }).choices[0]!.finish_reason).toBe('content_filter');
  });

  it('keeps every candidate as a choice of its index', () => {
    const two: GeminiGenerateContentResponse = {
      candidates: [
        { content: { role: 'model', parts: [{ text: 'B' }] }, finishReason: 'STOP', index: 1 },
        { content: { role: 'model', parts: [{ text: 'A' }] }, finishReason: 'MAX_TOKENS', index: 0 },
      ],
    };
    const chat = geminiToChatResponse(two, { model: 'm' });
    expect(chat.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason])).toEqual([
      [0, 'A', 'length'],
      [1, 'B', 'stop'],
    ]);
  });

  it('refuses a blocked prompt with a 400 content_filter naming the reason, never an empty success', () => {
    const error = thrown(() => geminiToChatResponse(answer('answer-blocked-prompt'), { model: 'm' }));
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, chatCode: 'content_filter', chatType: 'invalid_request_error' });
    expect((error as Error).message).toContain('PROHIBITED_CONTENT');
  });

  it('tells a malformed function call and an answer without candidates as 502s', () => {
    const malformed = thrown(() => geminiToChatResponse(answer('answer-malformed-call'), { model: 'm', upstream: 'gem' }));
    expect(malformed).toMatchObject({ status: 502, code: 'UPSTREAM_ERROR' });
    expect((malformed as Error).message).toContain('MALFORMED_FUNCTION_CALL');
    expect(thrown(() => geminiToChatResponse({ usageMetadata: { promptTokenCount: 3 } }, { model: 'm' }))).toMatchObject({ status: 502 });
  });
});
