/**
 * The answer recorder on recorded upstream streams and hand-written ones:
 * what it gives is the non-streamed answer of the same content, written
 * out here from the vendors' documented shapes (PROTOCOLS A.5, B.3); what
 * is not a whole stream gives nothing; and a stream past the byte limit
 * stops being recorded.
 */
import { describe, expect, it } from 'vitest';
import { createAnswerRecorder, DEFAULT_MAX_RECORDED_BYTES } from '../../../src/cache/answer-recorder.js';
import type { SseEvent } from '../../../src/sse/parse-sse.js';
import type { WireFormat } from '../../../src/types.js';
import { accumulateMessagesEvents, readJsonLinesFixture, readSseFixture } from '../translate/support/stream-harness.js';

type Json = Record<string, unknown>;

function record(format: WireFormat, events: readonly SseEvent[], maxBytes?: number): Json | undefined {
  const recorder = createAnswerRecorder(format, maxBytes === undefined ? {} : { maxBytes });
  for (const event of events) recorder.observe(event);
  return recorder.finish();
}

/** Messages events from payloads, each with its `event:` name. */
const messagesEvents = (...payloads: Json[]): SseEvent[] => payloads.map((payload) => ({ event: String(payload.type), data: JSON.stringify(payload) }));

/** Chat chunks (data-only events) from partial chunks, then `[DONE]`. */
function chatEvents(choicesPerChunk: Json[][], usage?: Json): SseEvent[] {
  const head = { id: 'chatcmpl-hand', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-test', system_fingerprint: 'fp_1' };
  const events = choicesPerChunk.map((choices) => ({ data: JSON.stringify({ ...head, choices }) }));
  if (usage) events.push({ data: JSON.stringify({ ...head, choices: [], usage }) });
  return [...events, { data: '[DONE]' }];
}

const delta = (index: number, fields: Json, finish: string | null = null): Json => ({ index, delta: fields, logprobs: null, finish_reason: finish });

describe('createAnswerRecorder on recorded chat streams', () => {
  it('openai-text: the text concatenated, the finish reason, the usage chunk', async () => {
    const recorded = record('chat', await readSseFixture('recorded/openai-text.sse'));
    expect(recorded).toEqual({
      id: 'chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL',
      object: 'chat.completion',
      created: 1727346168,
      model: 'gpt-4o-2024-08-06',
      system_fingerprint: 'fp_5050236cbd',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content:
              "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.",
            refusal: null,
          },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 14, completion_tokens: 30, total_tokens: 44, completion_tokens_details: { reasoning_tokens: 0 } },
    });
  });

  it('openai-tool-call: one call, its argument fragments merged, content null', async () => {
    const recorded = record('chat', await readSseFixture('recorded/openai-tool-call.sse'));
    expect(recorded).toMatchObject({ id: 'chatcmpl-ABfwERreu9s99xXsVuOWtIB2UOx62', object: 'chat.completion', created: 1727346182, system_fingerprint: 'fp_143bb8492c' });
    expect(recorded?.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [{ id: 'call_4XzlGBLtUe9dy3GVNV4jhq7h', type: 'function', function: { name: 'get_weather', arguments: '{"city":"New York City"}' } }],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ]);
    expect(recorded?.usage).toEqual({ prompt_tokens: 44, completion_tokens: 16, total_tokens: 60, completion_tokens_details: { reasoning_tokens: 0 } });
  });

  it('openai-parallel-tool-calls: two calls by index, each with its own arguments', async () => {
    const recorded = record('chat', await readSseFixture('recorded/openai-parallel-tool-calls.sse'));
    // This recording's role chunk sends no `refusal`, so the message has none.
    expect(recorded?.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_JMW1whyEaYG438VE1OIflxA2', type: 'function', function: { name: 'GetWeatherArgs', arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}' } },
            { id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou', type: 'function', function: { name: 'get_stock_price', arguments: '{"ticker": "AAPL", "exchange": "NASDAQ"}' } },
          ],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ]);
    expect(recorded?.usage).toEqual({ prompt_tokens: 149, completion_tokens: 60, total_tokens: 209, completion_tokens_details: { reasoning_tokens: 0 } });
  });
});

describe('createAnswerRecorder on hand-written chat streams', () => {
  it('two choices interleaved, reasoning and signed thinking, parallel calls sent out of order, cached-token usage', () => {
    const events = chatEvents(
      [
        [delta(0, { role: 'assistant', content: '', refusal: null }), delta(1, { role: 'assistant', content: null })],
        [delta(0, { reasoning_content: 'Think' }), delta(1, { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'b', arguments: '' } }] })],
        [delta(0, { reasoning_content: 'ing.' }), delta(1, { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'a', arguments: '{"x"' } }] })],
        [delta(0, { thinking_blocks: [{ type: 'thinking', thinking: 'Thinking.', signature: 'sig==' }] })],
        [delta(1, { tool_calls: [{ index: 0, function: { arguments: ':1}' } }, { index: 1, function: { arguments: '{}' } }] })],
        [delta(0, { content: 'Héllo 🌍' }), delta(0, { content: ' there' })],
        [delta(0, {}, 'stop')],
        [delta(1, {}, 'tool_calls')],
      ],
      { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 64 } },
    );
    expect(record('chat', events)).toEqual({
      id: 'chatcmpl-hand',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-test',
      system_fingerprint: 'fp_1',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Héllo 🌍 there',
            refusal: null,
            reasoning_content: 'Thinking.',
            thinking_blocks: [{ type: 'thinking', thinking: 'Thinking.', signature: 'sig==' }],
          },
          logprobs: null,
          finish_reason: 'stop',
        },
        {
          index: 1,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
              { id: 'call_b', type: 'function', function: { name: 'b', arguments: '{}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 64 } },
    });
  });

  it('a refusal is concatenated like any text (whether to store it is for isCacheableAnswer)', () => {
    const events = chatEvents([[delta(0, { role: 'assistant', content: '', refusal: null })], [delta(0, { refusal: "I can't" })], [delta(0, { refusal: ' help.' })], [delta(0, {}, 'stop')]]);
    expect((record('chat', events)?.choices as Json[])[0]?.message).toEqual({ role: 'assistant', content: '', refusal: "I can't help." });
  });

  it('Azure: a first chunk with an empty id and no choices does not take the completion id', () => {
    const events = [{ data: JSON.stringify({ id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [] }) }, ...chatEvents([[delta(0, { role: 'assistant', content: 'ok' }, 'stop')]])];
    expect(record('chat', events)).toMatchObject({ id: 'chatcmpl-hand', model: 'gpt-test', created: 1_700_000_000 });
  });
});

describe('createAnswerRecorder on recorded messages streams', () => {
  it('anthropic-text: the text block, the stop reason, usage from message_start and message_delta', async () => {
    expect(record('messages', await readSseFixture('recorded/anthropic-text.sse'))).toEqual({
      id: 'msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello there!' }],
      model: 'claude-3-opus-20240229',
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 11, output_tokens: 6 },
    });
  });

  it('anthropic-tool-use: the text, then the tool_use with its input parsed from the fragments', async () => {
    expect(record('messages', await readSseFixture('recorded/anthropic-tool-use.sse'))).toEqual({
      id: 'msg_019Q1hrJbZG26Fb9BQhrkHEr',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-8',
      content: [
        { type: 'text', text: "I'll check the current weather in Paris for you." },
        { type: 'tool_use', id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', input: { location: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 377, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 65, service_tier: 'standard' },
    });
  });

  it('anthropic-thinking (padded payloads): thinking with its signature, then text, as the vendor client folds it', () => {
    const events = readJsonLinesFixture('recorded/anthropic-thinking.data.jsonl');
    // The vendor client's fold (an independent accumulator) gives the message the non-streamed call returns.
    const expected = accumulateMessagesEvents(events.map((event) => JSON.parse(event.data) as Json)) as unknown as Json;
    const recorded = record('messages', events);
    expect(recorded).toEqual({ ...expected, stop_details: null });
    expect(recorded?.usage).toEqual({
      input_tokens: 47,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: 373,
      service_tier: 'standard',
      inference_geo: 'global',
      output_tokens_details: { thinking_tokens: 62 },
    });
    expect((recorded?.content as Json[]).map((block) => block.type)).toEqual(['thinking', 'text']);
    expect((recorded?.content as Json[])[0]?.signature).toMatch(/^EsECCokBCBAYAipA9i3HF1aHpQITkdN8OvLd33gdPZEy/);
  });
});

describe('createAnswerRecorder on hand-written messages streams', () => {
  const start = (usage: Json = { input_tokens: 10, output_tokens: 1 }): Json => ({
    type: 'message_start',
    message: { id: 'msg_hand', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage },
  });
  const blockDelta = (index: number, payload: Json): Json => ({ type: 'content_block_delta', index, delta: payload });

  it('thinking + signature, redacted thinking, cited text, parallel tool uses, server tool blocks, a stop sequence and cache usage', () => {
    const citation = { type: 'char_location', cited_text: 'grass is green', document_index: 0, start_char_index: 0, end_char_index: 14 };
    const search = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'Ex', encrypted_content: 'e' }] };
    const events = messagesEvents(
      start({ input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 1, service_tier: 'standard' }),
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      blockDelta(0, { type: 'thinking_delta', thinking: 'Let me ' }),
      blockDelta(0, { type: 'thinking_delta', thinking: 'see.' }),
      blockDelta(0, { type: 'signature_delta', signature: 'EqQBCgIYAh==' }),
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va==' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'ping' },
      { type: 'content_block_start', index: 2, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } },
      blockDelta(2, { type: 'input_json_delta', partial_json: '{"query": "gra' }),
      blockDelta(2, { type: 'input_json_delta', partial_json: 'ss"}' }),
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_start', index: 3, content_block: search },
      { type: 'content_block_stop', index: 3 },
      { type: 'content_block_start', index: 4, content_block: { type: 'text', text: '', citations: [] } },
      blockDelta(4, { type: 'citations_delta', citation }),
      blockDelta(4, { type: 'text_delta', text: 'The grass ' }),
      blockDelta(4, { type: 'text_delta', text: 'is green.' }),
      { type: 'content_block_stop', index: 4 },
      { type: 'content_block_start', index: 5, content_block: { type: 'tool_use', id: 'toolu_a', name: 'a', input: {} } },
      blockDelta(5, { type: 'input_json_delta', partial_json: '' }),
      blockDelta(5, { type: 'input_json_delta', partial_json: '{"n": [1, 2]}' }),
      { type: 'content_block_stop', index: 5 },
      { type: 'content_block_start', index: 6, content_block: { type: 'tool_use', id: 'toolu_b', name: 'b', input: {} } },
      { type: 'content_block_stop', index: 6 },
      { type: 'message_delta', delta: { stop_reason: 'stop_sequence', stop_sequence: '###', stop_details: null }, usage: { output_tokens: 42, server_tool_use: { web_search_requests: 1 } } },
      { type: 'message_stop' },
    );
    expect(record('messages', events)).toEqual({
      id: 'msg_hand',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'thinking', thinking: 'Let me see.', signature: 'EqQBCgIYAh==' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va==' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'grass' } },
        search,
        { type: 'text', text: 'The grass is green.', citations: [citation] },
        { type: 'tool_use', id: 'toolu_a', name: 'a', input: { n: [1, 2] } },
        { type: 'tool_use', id: 'toolu_b', name: 'b', input: {} },
      ],
      stop_reason: 'stop_sequence',
      stop_sequence: '###',
      stop_details: null,
      usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 42, service_tier: 'standard', server_tool_use: { web_search_requests: 1 } },
    });
  });

  const whole = (): Json[] => [
    start(),
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    blockDelta(0, { type: 'text_delta', text: 'Hi' }),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
    { type: 'message_stop' },
  ];

  it('the whole stream these cases break is recorded', () => {
    expect(record('messages', messagesEvents(...whole()))).toMatchObject({ content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn' });
  });

  it.each([
    ['no message_stop', (e: Json[]) => e.slice(0, -1)],
    ['no message_delta', (e: Json[]) => [...e.slice(0, 4), e[5]!]],
    ['no message_start', (e: Json[]) => e.slice(1)],
    ['a block never stopped', (e: Json[]) => [...e.slice(0, 3), ...e.slice(4)]],
    ['an error event', (e: Json[]) => [...e.slice(0, 3), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, ...e.slice(3)]],
    ['a second message_start', (e: Json[]) => [e[0]!, ...e]],
    ['a block out of order', (e: Json[]) => [e[0]!, { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }, ...e.slice(2)]],
    ['a delta of a kind the block does not take', (e: Json[]) => [...e.slice(0, 2), blockDelta(0, { type: 'thinking_delta', thinking: 'x' }), ...e.slice(2)]],
    ['a delta type it cannot keep', (e: Json[]) => [...e.slice(0, 2), blockDelta(0, { type: 'future_delta', x: 1 }), ...e.slice(2)]],
  ])('%s: undefined', (_name, edit) => {
    expect(record('messages', messagesEvents(...edit(whole())))).toBeUndefined();
  });

  it('an event that is not JSON: undefined', () => {
    const events = messagesEvents(...whole());
    events.splice(2, 0, { event: 'content_block_delta', data: '{"type":"content_block_delta",' });
    expect(record('messages', events)).toBeUndefined();
  });

  it.each([
    ['JSON cut short', '{"location": "Par'],
    ['not an object', '[1, 2]'],
  ])('a tool input that does not parse (%s): undefined', (_name, json) => {
    const events = messagesEvents(
      start(),
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } },
      blockDelta(0, { type: 'input_json_delta', partial_json: json }),
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    );
    expect(record('messages', events)).toBeUndefined();
  });
});

describe('createAnswerRecorder: chat streams that are not whole', () => {
  const whole = (): SseEvent[] => chatEvents([[delta(0, { role: 'assistant', content: '' })], [delta(0, { content: 'Hi' })], [delta(0, {}, 'stop')]], { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 });

  it('the whole stream these cases break is recorded', () => {
    expect(record('chat', whole())).toMatchObject({ choices: [{ message: { content: 'Hi' }, finish_reason: 'stop' }] });
  });

  it.each([
    ['no [DONE]', (e: SseEvent[]) => e.slice(0, -1)],
    ['no finish reason', (e: SseEvent[]) => [...e.slice(0, 2), ...e.slice(3)]],
    ['no chunk at all', (e: SseEvent[]) => e.slice(-1)],
    ['a chunk with a top-level error', (e: SseEvent[]) => [e[0]!, { data: '{"error":{"message":"boom","type":"server_error","param":null,"code":null}}' }, ...e.slice(1)]],
    ['an `event: error`', (e: SseEvent[]) => [e[0]!, { event: 'error', data: '{"error":{"message":"boom"}}' }, ...e.slice(1)]],
    ['a chunk that is not JSON', (e: SseEvent[]) => [e[0]!, { data: '{"id":' }, ...e.slice(1)]],
    ['log probabilities (never replayed)', (e: SseEvent[]) => [e[0]!, { data: JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: '!' }, logprobs: { content: [] }, finish_reason: null }] }) }, ...e.slice(1)]],
  ])('%s: undefined', (_name, edit) => {
    expect(record('chat', edit(whole()))).toBeUndefined();
  });

  it('one of two choices without a finish reason: undefined', () => {
    const events = chatEvents([[delta(0, { role: 'assistant', content: 'a' }), delta(1, { role: 'assistant', content: 'b' })], [delta(0, {}, 'stop')]]);
    expect(record('chat', events)).toBeUndefined();
  });
});

describe('createAnswerRecorder bounds', () => {
  const text = 'x'.repeat(1000);

  it('a chat stream whose text passes the limit gives undefined; the same stream under the limit is recorded', () => {
    const events = chatEvents([[delta(0, { role: 'assistant', content: '' })], ...Array.from({ length: 10 }, () => [delta(0, { content: text })]), [delta(0, {}, 'stop')]]);
    expect(record('chat', events, 9_999)).toBeUndefined();
    expect((record('chat', events, 10_000)?.choices as Json[])[0]).toMatchObject({ message: { content: text.repeat(10) } });
  });

  it('counts UTF-8 bytes, not characters', () => {
    // 'é' is 2 bytes: 1,000 of them are 2,000 bytes.
    const events = chatEvents([[delta(0, { role: 'assistant', content: 'é'.repeat(1000) })], [delta(0, {}, 'stop')]]);
    expect(record('chat', events, 1_999)).toBeUndefined();
    expect(record('chat', events, 2_000)).toBeDefined();
  });

  it('a messages stream whose thinking, text and tool input pass the limit gives undefined', () => {
    const piece = (index: number, type: string, field: string): Json => ({ type: 'content_block_delta', index, delta: { type, [field]: text } });
    const events = messagesEvents(
      { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      piece(0, 'thinking_delta', 'thinking'),
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      piece(1, 'text_delta', 'text'),
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
      { type: 'message_stop' },
    );
    // Two texts of 1,000 bytes, plus the block starts' event text.
    expect(record('messages', events, 1_500)).toBeUndefined();
    expect(record('messages', events, 4_000)).toBeDefined();
  });

  it('defaults to 1 MiB', () => {
    expect(DEFAULT_MAX_RECORDED_BYTES).toBe(1024 * 1024);
    const big = 'y'.repeat(512 * 1024);
    const events = chatEvents([[delta(0, { role: 'assistant', content: big })], [delta(0, { content: big })], [delta(0, { content: 'z' })], [delta(0, {}, 'stop')]]);
    expect(record('chat', events)).toBeUndefined();
    expect(record('chat', events.filter((_event, i) => i !== 2))).toBeDefined();
  });
});
