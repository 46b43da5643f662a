/**
 * `POST /v1/embeddings` routed like chat: to an OpenAI-compatible server
 * (path, body and key as forwarded), renamed, retried and failed over, to
 * Azure OpenAI (deployment paths, both API flavours); a model no route
 * serves gets chat's 404; `allowedModels`, token limits charged with the
 * upstream's input tokens, `onUsage` and the `embeddings` operation in
 * telemetry.
 */
import { SpanKind } from '@opentelemetry/api';
import { azureOpenAI, openAICompatible, type UsageRecord } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AzureStub, startAzureStub } from '../helpers/azure-stub.js';
import { embeddingsAnswer, STUB_TOKENS_PER_INPUT, stubVector } from '../helpers/embeddings-answer.js';
import { failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';

const UPSTREAM_KEY = 'sk-upstream-embeddings-0123456789';
const AZURE_KEY = 'azkey-embeddings-0123456789abcdef';
const NARROW_KEY = 'sk-narrow-0123456789abcdef';
const LIMITED_KEY = 'sk-limited-embeddings-0123456789';

let openaiStub: StubUpstream;
let failingStub: StubUpstream;
let azure: AzureStub;
let app: StartedApp;
const usage: UsageRecord[] = [];
const telemetry = createTelemetry();

beforeAll(async () => {
  openaiStub = await startStubUpstream((request) => {
    const body = JSON.parse(request.body) as Record<string, unknown>;
    return { kind: 'json', body: embeddingsAnswer(body, String(body.model)) };
  });
  failingStub = await startStubUpstream([{ kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error' } } }]);
  azure = await startAzureStub({ keys: [AZURE_KEY], deployments: ['embed-prod', 'text-embedding-3-large'] });
  const openai = openAICompatible({ baseURL: `${openaiStub.url}/v1`, apiKey: UPSTREAM_KEY, name: 'openai' });
  const failing = openAICompatible({ baseURL: `${failingStub.url}/v1`, apiKey: UPSTREAM_KEY, name: 'failing' });
  app = await startApp('express5', {
    auth: {
      keys: [
        KEY,
        { key: NARROW_KEY, id: 'narrow', allowedModels: ['text-embedding-3-small'] },
        { key: LIMITED_KEY, id: 'limited' },
      ],
    },
    // 40 input tokens a minute per caller: one call of five texts (35 tokens by the stub's count) fits, a second does not.
    limits: { rules: [{ models: 'corp-embed', tokens: { limit: 40, count: 'input' } }] },
    routing: { health: false },
    onUsage: (record) => usage.push(record),
    openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
    routes: [
      { match: 'text-embedding-3-small', upstream: openai },
      { match: 'corp-embed', upstream: openai, model: 'text-embedding-3-small' },
      { match: 'failover-embed', upstream: failing, retries: 0, fallbacks: [{ upstream: openai, model: 'text-embedding-3-small' }] },
      { match: 'azure-embed', upstream: azureOpenAI({ endpoint: azure.endpoint, apiKey: AZURE_KEY, apiVersion: '2024-10-21', deployment: 'embed-prod', name: 'azure' }) },
      { match: 'text-embedding-3-large', upstream: azureOpenAI({ endpoint: `${azure.endpoint}/openai/v1`, apiKey: AZURE_KEY, name: 'azure-v1' }) },
      { match: 'gpt-4o', upstream: openai },
    ],
  });
});

afterAll(async () => {
  await app.close();
  await Promise.all([openaiStub.close(), failingStub.close(), azure.close()]);
});

beforeEach(() => {
  usage.length = 0;
  telemetry.reset();
});

const lastRequest = (stub: StubUpstream) => stub.requests.at(-1)!;

describe('embeddings routed to an OpenAI-compatible upstream', () => {
  it('sends POST {baseURL}/embeddings with the caller\'s body and the upstream\'s key, and relays the answer', async () => {
    const before = openaiStub.requests.length;
    const answer = await openAIClient(app.url).embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float', dimensions: 3 });
    expect(openaiStub.requests.length - before).toBe(1);
    const sent = lastRequest(openaiStub);
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/embeddings');
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(JSON.parse(sent.body)).toEqual({ model: 'text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float', dimensions: 3 });
    expect(answer.data.map((item) => item.embedding)).toEqual([stubVector(0), stubVector(1)]);
    expect(answer.usage.prompt_tokens).toBe(2 * STUB_TOKENS_PER_INPUT);
  });

  it('relays base64 as the upstream sent it, which the client decodes to the same floats', async () => {
    const answer = await openAIClient(app.url).embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b', 'c'] });
    expect(JSON.parse(lastRequest(openaiStub).body).encoding_format).toBe('base64');
    expect(answer.data.map((item) => item.embedding)).toEqual([stubVector(0), stubVector(1), stubVector(2)]);
  });

  it('renames the model for its target', async () => {
    const answer = await openAIClient(app.url).embeddings.create({ model: 'corp-embed', input: 'x', encoding_format: 'float' });
    expect(JSON.parse(lastRequest(openaiStub).body).model).toBe('text-embedding-3-small');
    expect(answer.data[0]?.embedding).toEqual(stubVector(0));
  });

  it('fails over to the fallback when the first target answers 500', async () => {
    const failedBefore = failingStub.requests.length;
    const answer = await openAIClient(app.url).embeddings.create({ model: 'failover-embed', input: 'x', encoding_format: 'float' });
    expect(failingStub.requests.length - failedBefore).toBe(1);
    expect(lastRequest(failingStub).url).toBe('/v1/embeddings');
    expect(answer.data[0]?.embedding).toEqual(stubVector(0));
    expect(usage.at(-1)).toMatchObject({ endpoint: 'embeddings', upstream: 'openai', upstreamModel: 'text-embedding-3-small', status: 200 });
  });

  it('a model no route serves gets the same 404 as on chat completions', async () => {
    const client = openAIClient(app.url);
    const onEmbeddings = (await failure(() => client.embeddings.create({ model: 'nomic-embed-text', input: 'x' }))) as InstanceType<typeof OpenAI.APIError>;
    const onChat = (await failure(() => client.chat.completions.create({ model: 'nomic-embed-text', messages: [{ role: 'user', content: 'x' }] }))) as InstanceType<typeof OpenAI.APIError>;
    expect(onEmbeddings.status).toBe(404);
    expect(onEmbeddings.code).toBe('model_not_found');
    expect(onEmbeddings.error).toEqual(onChat.error);
  });

  it('a key limited to other models gets 403, and nothing is sent', async () => {
    const before = openaiStub.requests.length;
    const refused = (await failure(() => openAIClient(app.url, NARROW_KEY).embeddings.create({ model: 'corp-embed', input: 'x' }))) as InstanceType<typeof OpenAI.APIError>;
    expect(refused.status).toBe(403);
    expect(openaiStub.requests.length).toBe(before);
    await openAIClient(app.url, NARROW_KEY).embeddings.create({ model: 'text-embedding-3-small', input: 'x' });
    expect(openaiStub.requests.length).toBe(before + 1);
  });

  it('hostile inputs are refused before any upstream call', async () => {
    const before = openaiStub.requests.length;
    const client = openAIClient(app.url);
    expect(((await failure(() => client.embeddings.create({ model: 'text-embedding-3-small', input: Array.from({ length: 100_000 }, () => 'x') }))) as { status: number }).status).toBe(400);
    expect(((await failure(() => client.embeddings.create({ model: 'text-embedding-3-small', input: 'x'.repeat(2 * 1024 * 1024) }))) as { status: number }).status).toBe(400);
    expect(openaiStub.requests.length).toBe(before);
  });

  it('charges input tokens to the limits, settled with the upstream\'s count', async () => {
    const client = openAIClient(app.url, LIMITED_KEY);
    const five = Array.from({ length: 5 }, (_, i) => `text ${i}`);
    const first = await client.embeddings.create({ model: 'corp-embed', input: five }).withResponse();
    expect(first.data.usage.prompt_tokens).toBe(35);
    const before = openaiStub.requests.length;
    const second = (await failure(() => client.embeddings.create({ model: 'corp-embed', input: five }))) as InstanceType<typeof OpenAI.APIError>;
    expect(second.status).toBe(429);
    expect(openaiStub.requests.length).toBe(before);
  });

  it('reports usage to onUsage and telemetry as an embeddings operation', async () => {
    await openAIClient(app.url).embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b', 'c'] });
    const record = usage.at(-1)!;
    expect(record).toMatchObject({ endpoint: 'embeddings', model: 'text-embedding-3-small', upstream: 'openai', status: 200, stream: false, inputTokens: 3 * STUB_TOKENS_PER_INPUT });
    expect(record.outputTokens).toBeUndefined();
    await eventually(() => {
      const client = telemetry.spans().find((span) => span.kind === SpanKind.CLIENT);
      expect(client?.attributes['gen_ai.operation.name']).toBe('embeddings');
      expect(client?.attributes['gen_ai.usage.input_tokens']).toBe(3 * STUB_TOKENS_PER_INPUT);
      const server = telemetry.spans().find((span) => span.kind === SpanKind.SERVER);
      expect(server?.attributes['gen_ai.operation.name']).toBe('embeddings');
    });
  });
});

describe('embeddings routed to Azure OpenAI', () => {
  it('dated API: POST /openai/deployments/{deployment}/embeddings?api-version=…', async () => {
    const answer = await openAIClient(app.url).embeddings.create({ model: 'azure-embed', input: ['a', 'b'], encoding_format: 'float' });
    const sent = lastRequest(azure);
    expect(sent.url).toBe('/openai/deployments/embed-prod/embeddings?api-version=2024-10-21');
    expect(sent.headers['api-key']).toBe(AZURE_KEY);
    expect(answer.data.map((item) => item.embedding)).toEqual([stubVector(0), stubVector(1)]);
  });

  it('v1 API: POST /openai/v1/embeddings with the deployment as the model', async () => {
    const answer = await openAIClient(app.url).embeddings.create({ model: 'text-embedding-3-large', input: 'x' });
    const sent = lastRequest(azure);
    expect(sent.url).toBe('/openai/v1/embeddings');
    expect(JSON.parse(sent.body)).toMatchObject({ model: 'text-embedding-3-large', input: 'x' });
    expect(answer.data[0]?.embedding).toEqual(stubVector(0));
  });
});
