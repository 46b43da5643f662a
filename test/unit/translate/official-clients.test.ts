/**
 * The official clients accept every translated response and stream: the
 * recorded fixtures go through our translators, and the `openai` /
 * `@anthropic-ai/sdk` clients (with their stream helpers) read the result.
 */
import { APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import { APIError as OpenAIAPIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import type { MessagesResponse } from '../../../src/schemas/index.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { messagesToChatResponse } from '../../../src/translate/messages-to-chat-response.js';
import { createMessagesToChatStream } from '../../../src/translate/messages-to-chat-stream.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { anthropicClient, openAIClient } from './support/official-clients.js';
import { readJsonLinesFixture, readSseFixture, runTransform } from './support/stream-harness.js';

const MODEL = 'vendora-sonnet-4-6';
const chatParams = { model: MODEL, messages: [{ role: 'user' as const, content: 'Hi' }] };
const messagesParams = { model: MODEL, max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hi' }] };

function toChatSse(events: readonly SseEvent[], includeUsage = true): string[] {
  const transform = createMessagesToChatStream({ model: MODEL, id: 'chatcmpl-1', created: 1_760_000_000, includeUsage });
  return runTransform(transform, events, 'messages');
}

function toMessagesSse(events: readonly SseEvent[]): string[] {
  return runTransform(createChatToMessagesStream({ model: MODEL, id: 'msg_1' }), events, 'chat');
}

describe('openai client on translated messages streams', () => {
  it('stream helper: text reply with usage', async () => {
    const sse = toChatSse(await readSseFixture('recorded/anthropic-text.sse'));
    const { client } = openAIClient(() => ({ sse }));
    const stream = client.chat.completions.stream({ ...chatParams, stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Hello there!');
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.usage).toEqual({ prompt_tokens: 11, completion_tokens: 6, total_tokens: 17, prompt_tokens_details: { cached_tokens: 0 } });
  });

  it('stream helper: tool call arguments arrive whole and parse', async () => {
    const sse = toChatSse(await readSseFixture('recorded/anthropic-tool-use.sse'));
    const { client } = openAIClient(() => ({ sse }));
    const final = await client.chat.completions.stream(chatParams).finalChatCompletion();
    const choice = final.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe("I'll check the current weather in Paris for you.");
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function.name : undefined).toBe('get_weather');
    expect(JSON.parse(call?.type === 'function' ? call.function.arguments : '')).toEqual({ location: 'Paris' });
    expect(call?.id).toBe('toolu_01NRLabsLyVHZPKxbKvkfSMn');
  });

  it('stream helper: thinking stays out of content', async () => {
    const sse = toChatSse(readJsonLinesFixture('recorded/anthropic-thinking.data.jsonl'));
    const { client } = openAIClient(() => ({ sse }));
    const final = await client.chat.completions.stream(chatParams).finalChatCompletion();
    const content = final.choices[0]?.message.content ?? '';
    expect(content.startsWith('# Finding GCD(1071, 462)')).toBe(true);
    expect(content).not.toContain('working through');
    expect(final.usage?.completion_tokens_details?.reasoning_tokens).toBe(62);
  });

  it('raw iteration: every chunk parses, the stream ends at [DONE]', async () => {
    const sse = toChatSse(await readSseFixture('recorded/anthropic-tool-use.sse'));
    const { client } = openAIClient(() => ({ sse }));
    const stream = await client.chat.completions.create({ ...chatParams, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toHaveLength(sse.length - 1);
    expect(chunks.at(-1)?.choices).toEqual([]);
  });

  it('an upstream error event makes the client throw with its message', async () => {
    const events = (await readSseFixture('recorded/anthropic-text.sse')).slice(0, 4);
    events.push({ event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' });
    const sse = toChatSse(events);
    const { client } = openAIClient(() => ({ sse }));
    const error = await client.chat.completions.stream(chatParams).finalChatCompletion().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OpenAIAPIError);
    expect((error as OpenAIAPIError).message).toContain('Overloaded');
  });

  it('non-streamed: the client reads the translated completion', async () => {
    const message: MessagesResponse = {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'upstream-id',
      content: [
        { type: 'thinking', thinking: 'Let me look.', signature: 'sig' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
      ],
      stop_reason: 'tool_use', stop_sequence: null,
      usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 2500, output_tokens: 7 },
    };
    const json = messagesToChatResponse(message, { model: MODEL, id: 'chatcmpl-1', created: 1 });
    const { client } = openAIClient(() => ({ json }));
    const completion = await client.chat.completions.create(chatParams);
    expect(completion.choices[0]?.message.tool_calls?.[0]).toEqual({ id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } });
    expect(completion.usage).toMatchObject({ prompt_tokens: 2515, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 2500 } });
  });
});

describe('@anthropic-ai/sdk client on translated chat streams', () => {
  it('MessageStream: text reply, usage from the final chunk', async () => {
    const sse = toMessagesSse(await readSseFixture('recorded/openai-text.sse'));
    const { client } = anthropicClient(() => ({ sse }));
    const message = await client.messages.stream(messagesParams).finalMessage();
    expect(message.content).toHaveLength(1);
    expect(message.content[0]?.type === 'text' ? message.content[0].text : '').toMatch(/^I'm unable to provide real-time weather updates\./);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBe(14);
    expect(message.usage.output_tokens).toBe(30);
  });

  it('MessageStream: parallel tool calls become two tool_use blocks with parsed input', async () => {
    const sse = toMessagesSse(await readSseFixture('recorded/openai-parallel-tool-calls.sse'));
    const { client } = anthropicClient(() => ({ sse }));
    const message = await client.messages.stream(messagesParams).finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.map((block) => (block.type === 'tool_use' ? [block.name, block.input] : block.type))).toEqual([
      ['GetWeatherArgs', { city: 'Edinburgh', country: 'GB', units: 'c' }],
      ['get_stock_price', { ticker: 'AAPL', exchange: 'NASDAQ' }],
    ]);
  });

  it('raw iteration: every event is named and parses', async () => {
    const sse = toMessagesSse(await readSseFixture('recorded/openai-tool-call.sse'));
    const { client } = anthropicClient(() => ({ sse }));
    const stream = await client.messages.create({ ...messagesParams, stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toHaveLength(sse.length);
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
  });

  it('a mid-stream failure makes the client throw', async () => {
    const events = (await readSseFixture('recorded/openai-text.sse')).slice(0, 3);
    const transform = createChatToMessagesStream({ model: MODEL });
    const sse = [...events.flatMap((event) => [...transform.push(event)]), ...transform.error(new GatewayError('OVERLOADED', 'Upstream overloaded.'))];
    const { client } = anthropicClient(() => ({ sse: sse as string[] }));
    const error = await client.messages.stream(messagesParams).finalMessage().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AnthropicAPIError);
    expect((error as AnthropicAPIError).message).toContain('overloaded_error');
  });

  it('non-streamed: the client reads the translated message', async () => {
    const json = chatToMessagesResponse(
      {
        id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x',
        choices: [{ index: 0, finish_reason: 'tool_calls', logprobs: null, message: {
          role: 'assistant', content: null, refusal: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
        } }],
        usage: { prompt_tokens: 100, completion_tokens: 9, total_tokens: 109, prompt_tokens_details: { cached_tokens: 64 } },
      },
      { model: MODEL, id: 'msg_1' },
    );
    const { client } = anthropicClient(() => ({ json }));
    const message = await client.messages.create(messagesParams);
    expect(message.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'lookup', input: { q: 'x' } }]);
    expect(message.usage).toMatchObject({ input_tokens: 36, cache_read_input_tokens: 64, output_tokens: 9 });
    expect(message.stop_reason).toBe('tool_use');
  });
});
