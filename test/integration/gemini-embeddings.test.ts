/**
 * `POST /v1/embeddings` on a Gemini route: the official `openai` client's
 * `embeddings.create` against the Gemini stub, one text (`embedContent`)
 * and a list (`batchEmbedContents`), `dimensions`, the base64 encoding,
 * and token ids refused (Gemini embeds text only); `GET /v1/models` lists
 * the model as an embedding model of Google's published size.
 */
import { createGateway, geminiUpstream } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type GeminiStub, startGeminiStub, stubEmbedding, STUB_EMBEDDING_DIMENSIONS } from '../helpers/gemini-stub.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const GOOGLE_KEY = 'AIzaSy-gateway-key-0123456789';
const MODEL = 'gemini-embedding-001';

describe('embeddings on a Gemini route', () => {
  let stub: GeminiStub;
  let app: StartedApp;
  let openai: OpenAI;

  beforeAll(async () => {
    stub = await startGeminiStub({ keys: [GOOGLE_KEY] });
    app = await startApp('node', createGateway({ auth: { keys: [KEY] }, routes: [{ match: 'gemini-*', list: [MODEL], upstream: geminiUpstream({ apiKey: GOOGLE_KEY, baseURL: stub.baseURL }) }] }));
    openai = openAIClient(app.url);
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });
  beforeEach(() => {
    stub.requests.length = 0;
  });

  it('embeds one text with embedContent', async () => {
    const result = await openai.embeddings.create({ model: MODEL, input: 'The harbour at dawn', encoding_format: 'float' });
    expect(stub.requests[0]!.url).toBe(`/v1beta/models/${MODEL}:embedContent`);
    expect(result.data).toHaveLength(1);
    const expected = stubEmbedding('The harbour at dawn', STUB_EMBEDDING_DIMENSIONS);
    result.data[0]!.embedding.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 12));
    expect(result.model).toBe(MODEL);
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('embeds a list with batchEmbedContents, in order, with dimensions', async () => {
    const result = await openai.embeddings.create({ model: MODEL, input: ['one', 'two', 'three'], dimensions: 64, encoding_format: 'float' });
    expect(stub.requests[0]!.url).toBe(`/v1beta/models/${MODEL}:batchEmbedContents`);
    expect((stub.requests[0]!.json!.requests as { outputDimensionality: number }[]).map((request) => request.outputDimensionality)).toEqual([64, 64, 64]);
    expect(result.data.map((item) => item.index)).toEqual([0, 1, 2]);
    result.data.forEach((item, i) => expect(item.embedding[0]).toBeCloseTo(stubEmbedding(['one', 'two', 'three'][i]!, 64)[0]!, 12));
  });

  it('sends base64 as float32 little-endian bytes (what the client decodes by default)', async () => {
    // Without encoding_format the official client asks for base64 and decodes it.
    const result = await openai.embeddings.create({ model: MODEL, input: 'Lighthouse' });
    const expected = stubEmbedding('Lighthouse', STUB_EMBEDDING_DIMENSIONS);
    expect(result.data[0]!.embedding).toHaveLength(expected.length);
    result.data[0]!.embedding.forEach((value, i) => expect(value).toBeCloseTo(Math.fround(expected[i]!), 6));
  });

  it('refuses token ids with a 400 saying to send text', async () => {
    const error = await failure(() => openai.embeddings.create({ model: MODEL, input: [[1, 2, 3]] }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toMatch(/Gemini embeds text only/);
    expect(stub.requests).toHaveLength(0);
  });

  it('lists gemini-embedding-001 as an embedding model of 3072 dimensions, shortened down to 128 (Google\'s model page)', async () => {
    const page = await openai.models.list();
    const listed = page.data.find((model) => model.id === MODEL) as unknown as { modelgate: { interfaces: string[]; dimensions?: number; min_dimensions?: number } };
    expect(listed.modelgate).toMatchObject({ interfaces: ['embeddings'], dimensions: 3072, min_dimensions: 128 });
    expect(stub.requests).toHaveLength(0);
  });
});
