/**
 * The gateway in front of real HTTP upstreams (the simulator's HTTP face):
 * `messagesUpstream` for the twelve models and files (`upstreamFileStore`),
 * `openAICompatible` for the rest, exactly as the examples configure them
 * from ANTHROPIC_BASE_URL / OPENAI_BASE_URL. Same client calls as the mount
 * suites, over sockets on both sides.
 */
import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_CATALOG, messagesUpstream, openAICompatible, upstreamFileStore } from 'modelgate';
import { createSimulator, DEFAULT_SEED_FILES, type SimulatorServer } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, CHAT_TOOLS, openAIClient, PDF_BASE64, THINKING_PROMPT } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

describe.each(['node', 'express5', 'koa3'] as const)('HTTP upstreams behind %s', (mount) => {
  let upstream: SimulatorServer;
  let app: StartedApp;

  beforeAll(async () => {
    upstream = await createSimulator().listen();
    const vendor = messagesUpstream({ baseURL: upstream.url, apiKey: 'sk-vendor' });
    app = await startApp(mount, {
      auth: AUTH,
      routes: [
        { match: (model) => DEFAULT_CATALOG.has(model), upstream: vendor },
        { match: '*', upstream: openAICompatible({ baseURL: `${upstream.url}/v1`, apiKey: 'sk-openai' }) },
      ],
      // The vendor account's files, to every key (the suite deletes one).
      files: { store: upstreamFileStore(vendor), shared: true, allowDelete: true },
      // The simulator served over HTTP is a network upstream: its fault control must be forwarded by name.
      forwardHeaders: ['x-simulator-fault'],
    });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  it('messages: thinking stream, PDF block, count_tokens', async () => {
    const client = anthropicClient(app.url);
    const final = await client.messages
      .stream({ model: 'vendora-opus-4-5-20251101', max_tokens: 3000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: THINKING_PROMPT }] })
      .finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const pdf = await client.messages.create({
      model: 'vendora-sonnet-4-5',
      max_tokens: 128,
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 } }] }],
    });
    expect(pdf.content[0]?.type === 'text' && pdf.content[0].text).toContain('the document you sent');
    const counted = await client.messages.countTokens({ model: 'vendora-fable-5', messages: [{ role: 'user', content: 'Count me.' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
  });

  it('chat: translated tool calls streamed, passthrough text', async () => {
    const openai = openAIClient(app.url);
    const tools = await openai.chat.completions
      .stream({ model: 'vendora-sonnet-4-5-20250929', tools: CHAT_TOOLS, messages: [{ role: 'user', content: 'Use get_weather for Oslo.' }] })
      .finalChatCompletion();
    expect(tools.choices[0]?.message.tool_calls?.map((call) => (call.type === 'function' ? call.function.name : ''))).toEqual(['get_weather']);
    const text = await openai.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hello upstream.' }] });
    expect(text.choices[0]?.message.content).toContain('Hello upstream');
  });

  it('models with both clients', async () => {
    const ids = [];
    for await (const model of anthropicClient(app.url).models.list({ limit: 5 })) ids.push(model.id);
    expect(ids).toHaveLength(12);
    expect((await openAIClient(app.url).models.list()).data).toHaveLength(12);
  });

  it('files through the upstream store: list, metadata, download, delete, 404', async () => {
    const client = anthropicClient(app.url);
    const seed = DEFAULT_SEED_FILES.find((file) => file.mimeType === 'application/pdf');
    const listed = [];
    for await (const file of client.beta.files.list()) listed.push(file.id);
    expect(listed).toContain(seed?.id);
    const metadata = await client.files.retrieveMetadata(seed!.id!);
    expect(metadata.filename).toBe(seed?.filename);
    const download = await client.beta.files.download(seed!.id!);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(seed!.content))).toBe(true);
    const text = DEFAULT_SEED_FILES.find((file) => file.mimeType === 'text/plain');
    await client.files.delete(text!.id!);
    await expect(client.files.retrieveMetadata(text!.id!)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(client.beta.files.download('file_missing')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('an upstream that refuses the gateway key is a 502 for the caller, not a 401', async () => {
    const error = await anthropicClient(app.url)
      .messages.create({ model: 'vendora-opus-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }, { headers: { 'x-simulator-fault': 'status=401' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502 });
  });
});
