/**
 * `POST /v1/embeddings` on a Gemini route through the third-party clients
 * apps embed with, LangChain's `OpenAIEmbeddings` and the AI SDK's `embed` /
 * `embedMany`, on node:http and Express: the vectors they return are the
 * Gemini stub's for each text (`stubEmbedding`), in order, whichever of
 * `embedContent` / `batchEmbedContents` the gateway called.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { embed, embedMany } from 'ai';
import { createGateway, geminiUpstream } from 'modelgate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEY } from '../helpers/e2e-fixtures.js';
import { type GeminiStub, startGeminiStub, stubEmbedding, STUB_EMBEDDING_DIMENSIONS } from '../helpers/gemini-stub.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const GOOGLE_KEY = 'AIzaSy-gateway-key-0123456789';
const MODEL = 'gemini-embedding-001';

/** Each value equals the stub's, to float32 precision (a client may have asked for base64). */
function expectStubVector(actual: readonly number[] | undefined, text: string, dimensions = STUB_EMBEDDING_DIMENSIONS): void {
  const expected = stubEmbedding(text, dimensions);
  expect(actual).toHaveLength(expected.length);
  actual!.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 6));
}

describe.each<Mount>(['node', 'express5'])('Gemini embeddings through third-party clients on the %s mount', (mount) => {
  let stub: GeminiStub;
  let app: StartedApp;

  beforeAll(async () => {
    stub = await startGeminiStub({ keys: [GOOGLE_KEY] });
    app = await startApp(mount, createGateway({ auth: { keys: [KEY] }, routes: [{ match: 'gemini-*', upstream: geminiUpstream({ apiKey: GOOGLE_KEY, baseURL: stub.baseURL }) }] }));
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });
  beforeEach(() => {
    stub.requests.length = 0;
  });

  it('LangChain OpenAIEmbeddings: embedQuery and embedDocuments return the stub vectors, in order', async () => {
    const embeddings = new OpenAIEmbeddings({ model: MODEL, apiKey: KEY, configuration: { baseURL: `${app.url}/v1` }, maxRetries: 0 });
    const query = await embeddings.embedQuery('What is a gateway?');
    expectStubVector(query, 'What is a gateway?');
    const documents = await embeddings.embedDocuments(['A gateway routes calls.', 'Harbours shelter ships.', 'What is a gateway?']);
    expect(documents).toHaveLength(3);
    expectStubVector(documents[0], 'A gateway routes calls.');
    expectStubVector(documents[1], 'Harbours shelter ships.');
    expectStubVector(documents[2], 'What is a gateway?');
    expect(stub.requests.map((request) => request.url.split(':').pop())).toContain('batchEmbedContents');
  });

  it('LangChain OpenAIEmbeddings with dimensions: Gemini is asked for outputDimensionality', async () => {
    const embeddings = new OpenAIEmbeddings({ model: MODEL, dimensions: 256, apiKey: KEY, configuration: { baseURL: `${app.url}/v1` }, maxRetries: 0 });
    const [vector] = await embeddings.embedDocuments(['Short vectors, please.']);
    expectStubVector(vector, 'Short vectors, please.', 256);
    const sent = stub.requests[0]!.json!;
    const asked = 'requests' in sent ? (sent.requests as Array<{ outputDimensionality?: number }>)[0]?.outputDimensionality : sent.outputDimensionality;
    expect(asked).toBe(256);
  });

  it('AI SDK embed and embedMany return the stub vectors, in order, with usage', async () => {
    const provider = createOpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY });
    const one = await embed({ model: provider.embedding(MODEL), value: 'sunny day at the beach', maxRetries: 0 });
    expectStubVector(one.embedding, 'sunny day at the beach');
    expect(one.usage.tokens).toBeGreaterThan(0);
    const values = ['rainy day in the city', 'sunny day at the beach'];
    const many = await embedMany({ model: provider.embedding(MODEL), values, maxRetries: 0 });
    expect(many.embeddings).toHaveLength(2);
    many.embeddings.forEach((vector, i) => expectStubVector(vector, values[i]!));
    expect(stub.requests.every((request) => request.headers['x-goog-api-key'] === GOOGLE_KEY)).toBe(true);
  });
});
