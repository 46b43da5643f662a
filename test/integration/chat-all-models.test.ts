/**
 * Chat completions with the official `openai` client on every one of the
 * twelve vendor models (translated to the messages upstream), streamed and
 * not: text, tools (one, parallel, round trip), images, thinking through
 * `reasoning_effort`, and prompt caching per the caching class of the spec's model matrix.
 */
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, BOTH_TOOLS_PROMPT, CHAT_TOOLS, openAIClient, PNG_BASE64, THINKING_PROMPT } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { SPEC_MATRIX } from '../unit/models/spec-matrix.js';

/** Fields the gateway adds to translated messages (thinking); not in the openai types. */
type WithReasoning = { reasoning_content?: string };

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** About 2,600 tokens of stable text, the size the spec's model matrix measured caching with. */
const LONG_PREFIX = Array.from(
  { length: 130 },
  (_, i) => `Rule ${i + 1}: answer questions about the shipping policy using only the handbook, and cite the section you used.`,
).join('\n');

let app: StartedApp;
let openai: OpenAI;

beforeAll(async () => {
  app = await startApp('node', { auth: AUTH });
  openai = openAIClient(app.url);
});
afterAll(() => app.close());

// Expected thinking mode and caching class from the hand-typed SPEC matrix, not the catalog under test.
describe.each(SPEC_MATRIX)('$id (thinking $thinking, caching $caching)', (model) => {
  const base = { model: model.id };

  it('answers text, streamed and not', async () => {
    const completion = await openai.chat.completions.create({ ...base, messages: [{ role: 'user', content: 'What is a fjord?' }] });
    expect(completion.model).toBe(model.id);
    expect(completion.choices[0]?.message.content).toContain('What is a fjord');
    expect(completion.choices[0]?.finish_reason).toBe('stop');

    const chunks = await collect(
      await openai.chat.completions.create({ ...base, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'What is a fjord?' }] }),
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(completion.choices[0]?.message.content);
    expect(chunks.at(-1)?.usage).toEqual(completion.usage);
  });

  it('calls tools in parallel (streamed and not) and answers their results', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: BOTH_TOOLS_PROMPT }];
    const plain = await openai.chat.completions.create({ ...base, messages, tools: CHAT_TOOLS });
    const streamed = await openai.chat.completions.stream({ ...base, messages, tools: CHAT_TOOLS }).finalChatCompletion();
    for (const completion of [plain, streamed]) {
      expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
      const names = (completion.choices[0]?.message.tool_calls ?? []).map((call) => (call.type === 'function' ? call.function.name : ''));
      expect(names).toEqual(['get_weather', 'get_time']);
    }
    const calls = (plain.choices[0]?.message.tool_calls ?? []).filter((call) => call.type === 'function');
    expect(streamed.choices[0]?.message.tool_calls?.map((call) => call.id)).toEqual(calls.map((call) => call.id));
    const followUp: ChatCompletionMessageParam[] = [
      ...messages,
      { role: 'assistant', content: null, tool_calls: calls },
      ...calls.map((call, i) => ({ role: 'tool' as const, tool_call_id: call.id, content: i === 0 ? 'Rain, 9 C' : '08:30' })),
    ];
    const answer = await openai.chat.completions.create({ ...base, messages: followUp, tools: CHAT_TOOLS });
    expect(answer.choices[0]?.message.content).toContain('The get_weather tool returned "Rain, 9 C"');
  });

  it('reads a base64 image, streamed and not', async () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }] },
    ];
    const completion = await openai.chat.completions.create({ ...base, messages });
    expect(completion.choices[0]?.message.content).toContain('the image you sent');
    const streamed = await openai.chat.completions.stream({ ...base, messages }).finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe(completion.choices[0]?.message.content);
  });

  if (model.thinking === 'none') {
    it('rejects reasoning_effort with a 400 naming the parameter', async () => {
      await expect(openai.chat.completions.create({ ...base, reasoning_effort: 'low', messages: [{ role: 'user', content: THINKING_PROMPT }] })).rejects.toMatchObject({
        status: 400,
        param: 'reasoning_effort',
        type: 'invalid_request_error',
      });
    });
  } else {
    it(`thinks (${model.thinking}) with reasoning_effort, streamed and not`, async () => {
      const request = { ...base, reasoning_effort: 'low' as const, messages: [{ role: 'user' as const, content: THINKING_PROMPT }] };
      const completion = await openai.chat.completions.create(request);
      const reasoning = (completion.choices[0]?.message as WithReasoning).reasoning_content ?? '';
      expect(reasoning.length).toBeGreaterThan(20);
      expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBeGreaterThan(0);
      expect(completion.choices[0]?.message.content).toEqual(expect.any(String));

      const chunks = await collect(await openai.chat.completions.create({ ...request, stream: true }));
      const streamedReasoning = chunks.map((chunk) => (chunk.choices[0]?.delta as WithReasoning | undefined)?.reasoning_content ?? '').join('');
      expect(streamedReasoning).toBe(reasoning);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(completion.choices[0]?.message.content);
    });
  }

  it(`reports cached prompt tokens per its caching class (${model.caching})`, async () => {
    // cache_control on a chat content part is an extension the translator keeps on the block.
    const request = {
      ...base,
      messages: [
        { role: 'system', content: [{ type: 'text', text: LONG_PREFIX, cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: 'Can I return a parcel after 40 days?' },
      ],
    } as unknown as ChatCompletionCreateParamsNonStreaming;
    const calls: ChatCompletion[] = [];
    for (let i = 0; i < 4; i += 1) calls.push(await openai.chat.completions.create(request));
    const cached = calls.map((call) => call.usage?.prompt_tokens_details?.cached_tokens ?? 0);
    const prompt = calls.map((call) => call.usage?.prompt_tokens ?? 0);
    expect(prompt[0]).toBeGreaterThan(2048);
    // The whole prompt is counted every time; caching only changes how much of it was read from cache.
    expect(new Set(prompt).size).toBe(1);
    expect(cached[0]).toBe(0);
    if (model.caching === 'never') expect(cached).toEqual([0, 0, 0, 0]);
    if (model.caching === 'reliable') for (const value of cached.slice(1)) expect(value).toBeGreaterThan(2048);
    if (model.caching === 'intermittent') {
      // Two of three repeats read from the cache (intermittent caching): here the third repeat misses.
      expect(cached.slice(1).map((value) => value > 0)).toEqual([true, true, false]);
    }

    const chunks = await collect(await openai.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }));
    const streamedCached = chunks.at(-1)?.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    if (model.caching === 'never') expect(streamedCached).toBe(0);
    else expect(streamedCached).toBeGreaterThan(2048);
  });
});
