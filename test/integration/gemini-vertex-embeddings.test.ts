/**
 * `POST /v1/embeddings` on `geminiUpstream({ vertex })`: Vertex AI's Text
 * Embeddings API (`:predict`, one instance per request for
 * gemini-embedding-001), through the official `openai` client: one call per
 * text with the Bearer token, vectors in input order, `dimensions` as
 * `outputDimensionality`, usage from Google's token counts, a refusal told
 * with Google's status, token ids refused before any call.
 */
import { createGateway, geminiUpstream } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type GeminiStub, startGeminiStub, stubEmbedding, STUB_EMBEDDING_DIMENSIONS, stubTokenCount } from '../helpers/gemini-stub.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const TOKEN = 'ya29.c.gemini-vertex-token-0123456789abcdef';
const PROJECT = 'acme-ml-prod';
const REGION = 'us-central1';
const MODEL = 'gemini-embedding-001';
const PREDICT_PATH = `/v1/projects/${PROJECT}/locations/${REGION}/publishers/google/models/${MODEL}:predict`;

describe('Gemini embeddings on Vertex AI', () => {
  let stub: GeminiStub;
  let app: StartedApp;
  let openai: OpenAI;

  beforeAll(async () => {
    stub = await startGeminiStub({ tokens: [TOKEN] });
    const upstream = geminiUpstream({ vertex: { projectId: PROJECT, region: REGION, accessToken: TOKEN }, baseURL: stub.baseURL, name: 'vertex-gemini' });
    app = await startApp('node', createGateway({ auth: { keys: [KEY] }, routes: [{ match: 'gemini-*', upstream, retries: 0 }] }));
    openai = openAIClient(app.url);
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });
  beforeEach(() => {
    stub.requests.length = 0;
    stub.embedScript.length = 0;
  });

  it('embeds one text with one :predict call, authorized with the Bearer token', async () => {
    const text = 'The harbour at dawn';
    const result = await openai.embeddings.create({ model: MODEL, input: text, encoding_format: 'float' });
    expect(stub.requests.map((request) => request.url)).toEqual([PREDICT_PATH]);
    expect(stub.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(stub.requests[0]!.json).toEqual({ instances: [{ content: text }] });
    const expected = stubEmbedding(text, STUB_EMBEDDING_DIMENSIONS);
    result.data[0]!.embedding.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 12));
    expect(result.model).toBe(MODEL);
    expect(result.usage).toEqual({ prompt_tokens: stubTokenCount(text), total_tokens: stubTokenCount(text) });
  });

  it('embeds a list with one call per text, in input order, with dimensions and the summed token counts', async () => {
    const texts = ['one', 'two words', 'three more words', 'four', 'five and six', 'seven'];
    const result = await openai.embeddings.create({ model: MODEL, input: texts, dimensions: 64, encoding_format: 'float' });
    expect(stub.requests).toHaveLength(texts.length);
    const sent = stub.requests.map((request) => request.json as { instances: Array<{ content: string }>; parameters: { outputDimensionality: number } });
    expect(sent.map((body) => body.instances.length)).toEqual(texts.map(() => 1));
    expect(sent.map((body) => body.instances[0]!.content).sort()).toEqual([...texts].sort());
    expect(sent.every((body) => body.parameters.outputDimensionality === 64)).toBe(true);
    expect(result.data.map((item) => item.index)).toEqual([0, 1, 2, 3, 4, 5]);
    result.data.forEach((item, i) => {
      const expected = stubEmbedding(texts[i]!, 64);
      expect(item.embedding).toHaveLength(64);
      item.embedding.forEach((value, j) => expect(value).toBeCloseTo(expected[j]!, 12));
    });
    const tokens = texts.reduce((sum, text) => sum + stubTokenCount(text), 0);
    expect(result.usage.prompt_tokens).toBe(tokens);
  });

  it("decodes to the stub's floats when the client asks for base64 (its default)", async () => {
    const result = await openai.embeddings.create({ model: MODEL, input: ['Lighthouse', 'Breakwater'] });
    result.data.forEach((item, i) => {
      const expected = stubEmbedding(['Lighthouse', 'Breakwater'][i]!, STUB_EMBEDDING_DIMENSIONS);
      item.embedding.forEach((value, j) => expect(value).toBeCloseTo(Math.fround(expected[j]!), 6));
    });
  });

  it("tells a refused call with Google's status and starts no call after it", async () => {
    stub.embedScript.push({ kind: 'google', status: 429, googleStatus: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model.' });
    const texts = Array.from({ length: 12 }, (_, i) => `passage ${i}`);
    const error = await failure(() => openai.embeddings.create({ model: MODEL, input: texts }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(stub.requests.length).toBeLessThan(texts.length);
  });

  it('refuses token ids with a 400 before any call', async () => {
    const error = await failure(() => openai.embeddings.create({ model: MODEL, input: [[1, 2, 3]] }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toMatch(/Gemini embeds text only/);
    expect(stub.requests).toHaveLength(0);
  });
});
