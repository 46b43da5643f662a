import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, DEFAULT_SEED_FILES, type SimulatorServer } from '../../../src/simulator/index.js';
import { chatCompletionChunkSchema, messagesStreamEventSchema } from '../../../src/schemas/index.js';
import { splitSse } from './support/simulator-calls.js';

const sim = createSimulator();
let server: SimulatorServer;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  server = await sim.listen();
  anthropic = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  openai = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
});

describe('HTTP face with the official messages client', () => {
  it('listens on 127.0.0.1 on a free port', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('creates a message', async () => {
    const message = await anthropic.messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 200, messages: [{ role: 'user', content: 'Hello from the SDK' }] });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toContain('Hello from the SDK');
  });

  it('streams with messages.stream() to a final message with thinking and a tool call', async () => {
    const stream = anthropic.messages.stream({
      model: 'vendora-sonnet-4-6',
      max_tokens: 3000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
      messages: [{ role: 'user', content: 'Use get_weather for Madrid' }],
    });
    const message = await stream.finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    const tool = message.content[2];
    expect(tool?.type === 'tool_use' && tool.input).toEqual({ city: 'Madrid' });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage.output_tokens).toBeGreaterThan(10);
  });

  it('counts tokens', async () => {
    const { input_tokens } = await anthropic.messages.countTokens({ model: 'vendora-opus-5', messages: [{ role: 'user', content: 'Hello' }] });
    expect(input_tokens).toBe(7);
  });

  it('pages the model list to the end', async () => {
    const ids: string[] = [];
    for await (const model of anthropic.models.list({ limit: 5 })) ids.push(model.id);
    expect(ids).toHaveLength(12);
  });

  it('lists, reads, downloads and deletes files', async () => {
    const names: string[] = [];
    for await (const file of anthropic.files.list()) names.push(file.filename);
    expect(names).toContain('quarterly-report.pdf');
    const id = DEFAULT_SEED_FILES[0]?.id ?? '';
    expect((await anthropic.files.retrieveMetadata(id)).mime_type).toBe('application/pdf');
    const download = await anthropic.files.download(id);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(new TextDecoder().decode(await download.arrayBuffer()).startsWith('%PDF')).toBe(true);
    const textId = DEFAULT_SEED_FILES[1]?.id ?? '';
    expect(await anthropic.files.delete(textId)).toMatchObject({ id: textId, type: 'file_deleted' });
    await expect(anthropic.files.retrieveMetadata(textId)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    sim.reset();
  });

  it('surfaces vendor errors as SDK errors (404 model, 400 temperature, injected 529)', async () => {
    await expect(anthropic.messages.create({ model: 'vendora-nope', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(
      Anthropic.NotFoundError,
    );
    const temperature = anthropic.messages.create({ model: 'vendora-opus-4-7', max_tokens: 10, temperature: 0.5, messages: [{ role: 'user', content: 'x' }] } as Anthropic.MessageCreateParamsNonStreaming);
    await expect(temperature).rejects.toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error' } } });
    const overloaded = anthropic.messages.create(
      { model: 'vendora-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] },
      { headers: { 'x-simulator-fault': 'status=529' } },
    );
    await expect(overloaded).rejects.toMatchObject({ status: 529, error: { error: { type: 'overloaded_error' } } });
  });

  it('404 for the batch paths', async () => {
    const response = await fetch(`${server.url}/v1/messages/batches`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01' }, body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});

describe('HTTP face with the official chat client', () => {
  it('creates a completion for any model id', async () => {
    const completion = await openai.chat.completions.create({ model: 'local-test-model', messages: [{ role: 'user', content: 'Hi from openai' }] });
    expect(completion.choices[0]?.message.content).toContain('Hi from openai');
    expect(completion._request_id).toMatch(/^req_/);
  });

  it('streams with chat.completions.stream() to a final completion with tool calls', async () => {
    const stream = openai.chat.completions.stream({
      model: 'local-test-model',
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { term: { type: 'string' } }, required: ['term'] } } }],
      tool_choice: 'required',
      messages: [{ role: 'user', content: 'Find Kyoto' }],
    });
    const completion = await stream.finalChatCompletion();
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ term: 'Kyoto' });
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('lists models in the chat shape: the twelve of the catalog, then the three embedding models', async () => {
    const page = await openai.models.list();
    expect(page.data).toHaveLength(15);
    expect(page.data.slice(12).map((model) => model.id)).toEqual(['text-embedding-3-large', 'text-embedding-3-small', 'text-embedding-ada-002']);
    expect(page.data[0]?.object).toBe('model');
  });

  it('surfaces injected faults as SDK errors', async () => {
    const failing = openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, { headers: { 'x-simulator-fault': 'status=500' } });
    await expect(failing).rejects.toBeInstanceOf(OpenAI.InternalServerError);
  });
});

describe('HTTP face: raw wire', () => {
  it('writes every event of a messages stream in valid SSE with event lines', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'vendora-opus-4-8', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Raw stream' }] }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const frames = splitSse(await response.text());
    for (const frame of frames) expect(frame.event).toBe(messagesStreamEventSchema.parse(JSON.parse(frame.data)).type);
    expect(frames[frames.length - 1]?.event).toBe('message_stop');
  });

  it('writes chat chunks data-only, ending with [DONE]', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x', stream: true, messages: [{ role: 'user', content: 'Raw chat' }] }),
    });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const frames = splitSse(await response.text());
    expect(frames.pop()?.data).toBe('[DONE]');
    for (const frame of frames) chatCompletionChunkSchema.parse(JSON.parse(frame.data));
  });

  it('cuts a stream over HTTP with the fault header (no message_stop)', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-simulator-fault': 'cut-after=4' },
      body: JSON.stringify({ model: 'vendora-opus-4-8', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Cut me' }] }),
    });
    const frames = splitSse(await response.text());
    expect(frames).toHaveLength(4);
  });

  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    expect((await fetch(`${server.url}/v2/nothing`)).status).toBe(404);
    expect((await fetch(`${server.url}/v1/chat/completions`)).status).toBe(405);
  });
});
