/**
 * The chat-completions interface through the official `openai` client and
 * the Vercel AI SDK, on every mount: a passthrough model (chat upstream) and
 * a vendor model (translated to the messages upstream), streamed and not.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, BOTH_TOOLS_PROMPT, CHAT_TOOLS, IMAGE_URL, KEY, openAIClient, PDF_BASE64, PNG_BASE64 } from '../helpers/e2e-fixtures.js';
import { MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';

const VENDOR = 'vendora-sonnet-4-6';
const PASSTHROUGH = 'gpt-4o-mini';

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe.each(MOUNTS)('chat completions on %s', (mount) => {
  let app: StartedApp;
  let openai: OpenAI;

  beforeAll(async () => {
    app = await startApp(mount, { auth: AUTH });
    openai = openAIClient(app.url);
  });
  afterAll(() => app.close());

  it.each([PASSTHROUGH, VENDOR])('answers %s without streaming', async (model) => {
    const completion = await openai.chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Name one colour of the sky.' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(model);
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]?.message.role).toBe('assistant');
    expect(completion.choices[0]?.message.content).toContain('Name one colour of the sky');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
  });

  it.each([PASSTHROUGH, VENDOR])('streams %s with a usage chunk and one id', async (model) => {
    const stream = await openai.chat.completions.create({
      model,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Say something about rivers.' }],
    });
    const chunks = await collect(stream);
    expect(chunks.length).toBeGreaterThan(3);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('Say something about rivers');
    const finishes = chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean);
    expect(finishes).toEqual(['stop']);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it.each([PASSTHROUGH, VENDOR])('chat.completions.stream() gives a final completion on %s', async (model) => {
    const runner = openai.chat.completions.stream({ model, messages: [{ role: 'user', content: 'Tell me about clouds.' }] });
    const deltas: string[] = [];
    runner.on('content', (delta) => deltas.push(delta));
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(deltas.join(''));
    expect(final.choices[0]?.message.content).toContain('Tell me about clouds');
    expect(final.choices[0]?.finish_reason).toBe('stop');
  });

  it.each([false, true])('makes parallel tool calls (stream: %s), then answers the tool results', async (stream) => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: BOTH_TOOLS_PROMPT }];
    const request = { model: VENDOR, messages, tools: CHAT_TOOLS };
    const first = stream
      ? await openai.chat.completions.stream(request).finalChatCompletion()
      : await openai.chat.completions.create(request);
    const message = first.choices[0]?.message;
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const calls = (message?.tool_calls ?? []).filter((call) => call.type === 'function');
    expect(calls.map((call) => call.function.name)).toEqual(['get_weather', 'get_time']);
    for (const call of calls) {
      expect(call.id).toMatch(/\S{8,}/);
      expect(JSON.parse(call.function.arguments)).toEqual(expect.any(Object));
    }
    expect(JSON.parse(calls[0]!.function.arguments)).toHaveProperty('city');

    messages.push({ role: 'assistant', content: message?.content ?? null, tool_calls: calls });
    messages.push({ role: 'tool', tool_call_id: calls[0]!.id, content: '18 C and sunny' });
    messages.push({ role: 'tool', tool_call_id: calls[1]!.id, content: '14:05' });
    const second = await openai.chat.completions.create({ model: VENDOR, messages, tools: CHAT_TOOLS });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(second.choices[0]?.message.content).toMatch(/tool (returned|reported)/);
  });

  it('forces a named tool with tool_choice', async () => {
    const completion = await openai.chat.completions.create({
      model: VENDOR,
      messages: [{ role: 'user', content: 'Anything.' }],
      tools: CHAT_TOOLS,
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    });
    const calls = completion.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => (call.type === 'function' ? call.function.name : call.type))).toEqual(['get_time']);
  });

  it.each([
    ['base64', `data:image/png;base64,${PNG_BASE64}`],
    ['URL', IMAGE_URL],
  ])('reads an image given as %s', async (_kind, url) => {
    const completion = await openai.chat.completions.create({
      model: VENDOR,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    });
    // The upstream saw an image and no text: the simulator quotes "the image you sent".
    expect(completion.choices[0]?.message.content).toContain('the image you sent');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it('reads a PDF sent as a file part (a document block upstream)', async () => {
    const completion = await openai.chat.completions.create({
      model: VENDOR,
      messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: `data:application/pdf;base64,${PDF_BASE64}`, filename: 'invoice.pdf' } }] }],
    });
    expect(completion.choices[0]?.message.content).toContain('the document you sent');
  });

  it('works with the AI SDK (generateText and streamText)', async () => {
    const provider = createOpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY });
    const generated = await generateText({ model: provider.chat(VENDOR), prompt: 'Describe a lighthouse.', maxOutputTokens: 256, maxRetries: 0 });
    expect(generated.text).toContain('Describe a lighthouse');
    expect(generated.finishReason).toBe('stop');
    expect(generated.usage.inputTokens).toBeGreaterThan(0);

    const streamed = streamText({ model: provider.chat(PASSTHROUGH), prompt: 'Describe a harbour.', maxOutputTokens: 256, maxRetries: 0 });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toContain('Describe a harbour');
    expect(await streamed.finishReason).toBe('stop');
  });
});
