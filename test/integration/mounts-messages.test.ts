/**
 * The messages interface through the official `@anthropic-ai/sdk` client
 * (1.12, `anthropic-version: 2026-10-21`) and the AI SDK's provider, on
 * every mount: text, tools, images, PDF documents, thinking.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicBearerClient,
  anthropicClient,
  AUTH,
  BOTH_TOOLS_PROMPT,
  IMAGE_URL,
  KEY,
  MESSAGES_TOOLS,
  PDF_BASE64,
  PNG_BASE64,
  THINKING_PROMPT,
} from '../helpers/e2e-fixtures.js';
import { MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';

const MODEL = 'vendora-sonnet-4-6';

describe.each(MOUNTS)('messages on %s', (mount) => {
  let app: StartedApp;
  let client: Anthropic;

  beforeAll(async () => {
    app = await startApp(mount, { auth: AUTH });
    client = anthropicClient(app.url);
  });
  afterAll(() => app.close());

  it('answers without streaming, with usage and a request id', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Name one colour of the sky.' }],
    });
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.model).toBe(MODEL);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0]?.type).toBe('text');
    expect(message.content[0]?.type === 'text' && message.content[0].text).toContain('Name one colour of the sky');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(message._request_id).toMatch(/^req_/);
  });

  it('accepts Authorization: Bearer as well as x-api-key', async () => {
    const message = await anthropicBearerClient(app.url).messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi.' }],
    });
    expect(message.stop_reason).not.toBeNull();
  });

  it('streams events from message_start to message_stop', async () => {
    const stream = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      stream: true,
      messages: [{ role: 'user', content: 'Say something about rivers.' }],
    });
    const events: RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events[0]?.type).toBe('message_start');
    expect(events.at(-1)?.type).toBe('message_stop');
    const text = events.map((event) => (event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : '')).join('');
    expect(text).toContain('Say something about rivers');
    const delta = events.find((event) => event.type === 'message_delta');
    expect(delta?.type === 'message_delta' && delta.usage.output_tokens).toBeGreaterThan(0);
  });

  it('messages.stream() gives the final message and text', async () => {
    const stream = client.messages.stream({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'Tell me about clouds.' }] });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const final = await stream.finalMessage();
    expect(final.content[0]?.type === 'text' && final.content[0].text).toBe(deltas.join(''));
    expect(final.stop_reason).toBe('end_turn');
  });

  it.each([false, true])('makes parallel tool calls (stream: %s) and answers the tool results', async (streamed) => {
    const messages: MessageParam[] = [{ role: 'user', content: BOTH_TOOLS_PROMPT }];
    const request = { model: MODEL, max_tokens: 512, tools: MESSAGES_TOOLS, messages };
    const first = streamed ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
    expect(first.stop_reason).toBe('tool_use');
    const uses = first.content.filter((block) => block.type === 'tool_use');
    expect(uses.map((block) => block.name)).toEqual(['get_weather', 'get_time']);
    expect(uses[0]?.input).toHaveProperty('city');
    messages.push({ role: 'assistant', content: first.content });
    messages.push({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: uses[0]!.id, content: '18 C and sunny' },
        { type: 'tool_result', tool_use_id: uses[1]!.id, content: '14:05' },
      ],
    });
    const second = await client.messages.create({ ...request, messages });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content[0]?.type === 'text' && second.content[0].text).toContain('The get_weather tool returned "18 C and sunny"');
  });

  it('forces a specific tool with tool_choice', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      tools: MESSAGES_TOOLS,
      tool_choice: { type: 'tool', name: 'get_time' },
      messages: [{ role: 'user', content: 'Anything.' }],
    });
    expect(message.content.filter((block) => block.type === 'tool_use').map((block) => block.name)).toEqual(['get_time']);
  });

  it.each([
    ['base64 image', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } }, 'the image you sent'],
    ['URL image', { type: 'image', source: { type: 'url', url: IMAGE_URL } }, 'the image you sent'],
    ['PDF document', { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 } }, 'the document you sent'],
  ] as const)('reads a %s block', async (_kind, block, quoted) => {
    const message = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: [block] }] });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toContain(quoted);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
  });

  it.each([
    ['enabled', 'vendora-sonnet-4-6', { type: 'enabled', budget_tokens: 1024 }],
    ['adaptive', 'vendora-opus-4-8', { type: 'adaptive' }],
  ] as const)('streams thinking (%s) before the text', async (_mode, model, thinking) => {
    const final = await client.messages
      .stream({ model, max_tokens: 4096, thinking, messages: [{ role: 'user', content: THINKING_PROMPT }] })
      .finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const block = final.content[0];
    expect(block?.type === 'thinking' && block.thinking.length).toBeGreaterThan(10);
    expect(block?.type === 'thinking' && block.signature.length).toBeGreaterThan(10);
  });

  it('works with the AI SDK (generateText and streamText)', async () => {
    const provider = createAnthropic({ baseURL: `${app.url}/v1`, apiKey: KEY });
    const generated = await generateText({ model: provider(MODEL), prompt: 'Describe a lighthouse.', maxOutputTokens: 256, maxRetries: 0 });
    expect(generated.text).toContain('Describe a lighthouse');
    expect(generated.finishReason).toBe('stop');
    expect(generated.usage.inputTokens).toBeGreaterThan(0);

    const streamed = streamText({ model: provider(MODEL), prompt: 'Describe a harbour.', maxOutputTokens: 256, maxRetries: 0 });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toContain('Describe a harbour');
    expect(await streamed.finishReason).toBe('stop');
  });
});
