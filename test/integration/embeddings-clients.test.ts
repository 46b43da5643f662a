/**
 * `POST /v1/embeddings` on the default gateway (the embedded simulator)
 * through the clients apps embed with: the official `openai` client (which
 * asks for base64 and decodes it), LangChain's `OpenAIEmbeddings` and the AI
 * SDK's `embed` / `embedMany`, on node:http, Express and Fastify; the
 * listing of embedding models; and what the endpoint refuses.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { embed, embedMany } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const MODEL = 'text-embedding-3-small';
const norm = (vector: readonly number[]): number => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

describe.each<Mount>(['node', 'express5', 'fastify5'])('embeddings on the %s mount', (mount) => {
  let app: StartedApp;
  let openai: OpenAI;
  beforeAll(async () => {
    app = await startApp(mount, { auth: AUTH });
    openai = openAIClient(app.url);
  });
  afterAll(() => app.close());

  it('embeds a string and a list with openai.embeddings.create', async () => {
    const one = await openai.embeddings.create({ model: MODEL, input: 'The food was delicious.' });
    expect(one.object).toBe('list');
    expect(one.model).toBe(MODEL);
    expect(one.data).toHaveLength(1);
    // OpenAI's published size of text-embedding-3-small.
    expect(one.data[0]?.embedding).toHaveLength(1536);
    expect(norm(one.data[0]!.embedding)).toBeCloseTo(1, 5);
    expect(one.usage.prompt_tokens).toBeGreaterThan(0);
    const many = await openai.embeddings.create({ model: MODEL, input: ['The food was delicious.', 'The service was slow.'] });
    expect(many.data.map((item) => item.index)).toEqual([0, 1]);
    expect(many.data[0]?.embedding).toEqual(one.data[0]?.embedding);
    expect(many.data[1]?.embedding).not.toEqual(one.data[0]?.embedding);
  });

  it('the client\'s default base64 decodes to the floats of encoding_format "float"', async () => {
    const input = ['alpha', 'beta'];
    // Without encoding_format the client asks for base64 and decodes it itself.
    const decoded = await openai.embeddings.create({ model: MODEL, input });
    const floats = await openai.embeddings.create({ model: MODEL, input, encoding_format: 'float' });
    expect(decoded.data.map((item) => item.embedding)).toEqual(floats.data.map((item) => item.embedding));
    const raw = await fetch(`${app.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, input, encoding_format: 'base64' }),
    });
    const body = (await raw.json()) as { data: Array<{ embedding: unknown }> };
    expect(typeof body.data[0]?.embedding).toBe('string');
  });

  it('honours dimensions', async () => {
    const short = await openai.embeddings.create({ model: 'text-embedding-3-large', input: 'shorter', dimensions: 256 });
    expect(short.data[0]?.embedding).toHaveLength(256);
    expect(norm(short.data[0]!.embedding)).toBeCloseTo(1, 5);
  });

  it('refuses a chat model, an unknown model and a bad input in the OpenAI error format', async () => {
    const chatModel = (await failure(() => openai.embeddings.create({ model: 'vendora-sonnet-4-6', input: 'x' }))) as InstanceType<typeof OpenAI.APIError>;
    expect(chatModel).toBeInstanceOf(OpenAI.BadRequestError);
    expect(chatModel.param).toBe('model');
    expect(chatModel.message).toMatch(/create no embeddings/);
    const unknown = (await failure(() => openai.embeddings.create({ model: 'text-embedding-9', input: 'x' }))) as InstanceType<typeof OpenAI.APIError>;
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect(unknown.code).toBe('model_not_found');
    const empty = (await failure(() => openai.embeddings.create({ model: MODEL, input: [] }))) as InstanceType<typeof OpenAI.APIError>;
    expect(empty).toBeInstanceOf(OpenAI.BadRequestError);
    expect(empty.param).toBe('input');
  });

  it('refuses hostile inputs before any work: 100,000 texts and a 2 MB text are 400s', async () => {
    const many = (await failure(() => openai.embeddings.create({ model: MODEL, input: Array.from({ length: 100_000 }, () => 'x') }))) as InstanceType<typeof OpenAI.APIError>;
    expect(many.status).toBe(400);
    expect(many.message).toMatch(/100000 inputs/);
    const long = (await failure(() => openai.embeddings.create({ model: MODEL, input: 'x'.repeat(2 * 1024 * 1024) }))) as InstanceType<typeof OpenAI.APIError>;
    expect(long.status).toBe(400);
    expect(long.param).toBe('input');
  });

  it('needs a Bearer key: none is a 401, and the messages client\'s x-api-key is not taken', async () => {
    const none = (await failure(() => openAIClient(app.url, 'sk-wrong').embeddings.create({ model: MODEL, input: 'x' }))) as InstanceType<typeof OpenAI.APIError>;
    expect(none.status).toBe(401);
    const vendorStyle = await fetch(`${app.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, input: 'x' }),
    });
    expect(vendorStyle.status).toBe(401);
    expect(((await vendorStyle.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('lists the embedding models to chat clients, with their sizes, and not to the messages client', async () => {
    const listed = (await openai.models.list()).data as unknown as Array<{ id: string; modelgate: { interfaces: string[]; dimensions?: number } }>;
    const small = listed.find((model) => model.id === MODEL);
    expect(small?.modelgate).toMatchObject({ interfaces: ['embeddings'], dimensions: 1536 });
    expect(listed.find((model) => model.id === 'text-embedding-3-large')?.modelgate.dimensions).toBe(3072);
    const vendorIds: string[] = [];
    for await (const model of anthropicClient(app.url).models.list()) vendorIds.push(model.id);
    expect(vendorIds).toHaveLength(12);
    expect(vendorIds.some((id) => id.includes('embedding'))).toBe(false);
  });
});

describe('embedding clients against the gateway', () => {
  let app: StartedApp;
  beforeAll(async () => {
    app = await startApp('node', { auth: AUTH });
  });
  afterAll(() => app.close());

  it('LangChain OpenAIEmbeddings: embedQuery and embedDocuments agree with the openai client', async () => {
    const embeddings = new OpenAIEmbeddings({ model: MODEL, apiKey: KEY, configuration: { baseURL: `${app.url}/v1` }, maxRetries: 0 });
    const query = await embeddings.embedQuery('What is a gateway?');
    const documents = await embeddings.embedDocuments(['A gateway routes calls.', 'What is a gateway?']);
    expect(query).toHaveLength(1536);
    expect(documents).toHaveLength(2);
    expect(documents[1]).toEqual(query);
    const direct = await openAIClient(app.url).embeddings.create({ model: MODEL, input: 'What is a gateway?' });
    expect(query).toEqual(direct.data[0]?.embedding);
  });

  it('AI SDK embed and embedMany', async () => {
    const provider = createOpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY });
    const one = await embed({ model: provider.embedding(MODEL), value: 'sunny day at the beach', maxRetries: 0 });
    expect(one.embedding).toHaveLength(1536);
    expect(one.usage.tokens).toBeGreaterThan(0);
    const many = await embedMany({ model: provider.embedding(MODEL), values: ['rainy day in the city', 'sunny day at the beach'], maxRetries: 0 });
    expect(many.embeddings).toHaveLength(2);
    expect(many.embeddings[1]).toEqual(one.embedding);
  });
});
