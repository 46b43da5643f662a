/**
 * `geminiUpstream({ vertex })`: the same models on Vertex AI's path
 * (`/v1/projects/{project}/locations/{region}/publishers/google/models/{model}:…`)
 * with a Google access token as a Bearer, streamed and not, through the
 * official `openai` client; a token provider that fails is the fixed 502
 * of the other cloud upstreams, without the provider's error text.
 */
import { createGateway, geminiUpstream, type GatewayError } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { geminiChunks } from '../helpers/gemini-fixtures.js';
import { type GeminiStub, startGeminiStub } from '../helpers/gemini-stub.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const TOKEN = 'ya29.c.gemini-vertex-token-0123456789abcdef';
const PROJECT = 'acme-ml-prod';
const REGION = 'us-central1';
const MODEL = 'gemini-2.5-flash';
const TEXT = 'Café culture in 日本 is quiet and precise ☕️🍰.';

describe('Gemini on Vertex AI', () => {
  let stub: GeminiStub;
  let app: StartedApp;
  let openai: OpenAI;
  const errors: GatewayError[] = [];

  beforeAll(async () => {
    stub = await startGeminiStub({ tokens: [TOKEN] });
    const vertex = geminiUpstream({ vertex: { projectId: PROJECT, region: REGION, accessToken: TOKEN }, baseURL: stub.baseURL, name: 'vertex-gemini' });
    const broken = geminiUpstream({
      vertex: { projectId: PROJECT, region: REGION, accessToken: () => Promise.reject(new Error('metadata server said no: secret-detail')) },
      baseURL: stub.baseURL,
      name: 'vertex-broken',
    });
    app = await startApp('node', createGateway({
      auth: { keys: [KEY] },
      routes: [
        { match: 'broken', upstream: broken, model: MODEL, retries: 0 },
        { match: 'gemini-*', upstream: vertex },
      ],
      onError: ({ error }) => errors.push(error),
    }));
    openai = openAIClient(app.url);
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });
  beforeEach(() => {
    stub.requests.length = 0;
    stub.script.length = 0;
  });

  it('calls generateContent on the Vertex path with the Bearer token', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const completion = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Cafés?' }] });
    expect(completion.choices[0]!.message.content).toBe(TEXT);
    const request = stub.requests[0]!;
    expect(request.url).toBe(`/v1/projects/${PROJECT}/locations/${REGION}/publishers/google/models/${MODEL}:generateContent`);
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers['x-goog-api-key']).toBeUndefined();
  });

  it('streams from streamGenerateContent?alt=sse on the Vertex path', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const stream = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Cafés?' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(TEXT);
    expect(stub.requests[0]!.url).toBe(`/v1/projects/${PROJECT}/locations/${REGION}/publishers/google/models/${MODEL}:streamGenerateContent?alt=sse`);
  });

  it('answers a failed token fetch with the fixed 502, the cause kept for the operator', async () => {
    const error = await failure(() => openai.chat.completions.create({ model: 'broken', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((error as Error).message).not.toContain('secret-detail');
    expect(stub.requests).toHaveLength(0);
    const cause = errors.at(-1)?.cause as Error | undefined;
    expect(cause?.message).toBe('Upstream "vertex-broken" could not get a Google access token');
    expect((cause?.cause as Error | undefined)?.message).toContain('secret-detail');
  });
});
