/**
 * The gateway in front of Azure OpenAI (the protocol stub, speaking Azure's
 * wire format from hand-written shapes): the official `openai` client (chat,
 * streamed and not, and Responses), the AI SDK (`.chat(model)` and
 * `openai(model)`), and the `@anthropic-ai/sdk` client on /v1/messages for a
 * route with `serveMessages`; filtered prompts and answers, 429 retries with
 * `retry-after`, fallbacks across platforms, Entra ID tokens, key
 * passthrough, usage, telemetry, files, and no credential reaching a client
 * or a hook.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { SpanKind } from '@opentelemetry/api';
import { generateText, streamText } from 'ai';
import { azureOpenAI, openAICompatible, type UsageRecord } from 'modelgate';
import { createSimulator, type SimulatorServer } from 'modelgate/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AzureStub, startAzureStub } from '../helpers/azure-stub.js';
import { anthropicClient, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';

const AZURE_KEY = 'azkey0123456789abcdef0123456789ab';
/** A caller's own Azure key, accepted by the gateway and forwarded on the passthrough route. */
const CALLER_AZURE_KEY = 'callerazurekey0123456789abcdef01';

let stub: AzureStub;
let sim: SimulatorServer;
let app: StartedApp;
const telemetry = createTelemetry();
const usage: UsageRecord[] = [];
const hookRecords: string[] = [];
/** The Entra tokens the stub accepts right now, and the ones the provider handed out. */
let currentToken = 'entra-token-1';
let tokenCalls = 0;

beforeAll(async () => {
  stub = await startAzureStub({ keys: [AZURE_KEY, CALLER_AZURE_KEY], tokens: () => [currentToken], deployments: ['gpt4o-prod', 'gpt-4o-mini'] });
  sim = await createSimulator().listen();
  const byKey = azureOpenAI({ endpoint: stub.endpoint, apiKey: AZURE_KEY, apiVersion: '2024-10-21', deployment: { 'gpt-4o': 'gpt4o-prod' }, name: 'azure' });
  const byEntra = azureOpenAI({
    endpoint: `${stub.endpoint}/openai/v1`,
    azureADTokenProvider: async () => {
      tokenCalls++;
      return currentToken;
    },
    name: 'azure-entra',
  });
  const passthrough = azureOpenAI({ endpoint: stub.endpoint, deployment: 'gpt-4o-mini', name: 'azure-passthrough' });
  const vendorOpenAI = openAICompatible({ baseURL: `${sim.url}/v1`, apiKey: 'sk-openai-compatible', name: 'openai' });
  const nowhere = openAICompatible({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-nowhere', name: 'nowhere', timeouts: { connectMs: 500 } });
  app = await startApp('node', {
    auth: { keys: [KEY, CALLER_AZURE_KEY] },
    // Each case checks one request's retries and fallbacks on its own; cooldowns carrying over between cases are tested elsewhere.
    routing: { health: false },
    routes: [
      { match: 'gpt-4o', upstream: byKey, serveMessages: true, fallbacks: [{ upstream: vendorOpenAI, model: 'gpt-4.1' }] },
      { match: 'gpt-4o-mini', upstream: byEntra, serveMessages: true },
      { match: 'mine-4o', upstream: passthrough, keyPassthrough: true },
      { match: 'gpt-4.1-first', upstream: nowhere, fallbacks: [{ upstream: byKey, model: 'gpt-4o' }] },
    ],
    onUsage: (record) => {
      usage.push(record);
      hookRecords.push(JSON.stringify(record));
    },
    onError: ({ error }) => hookRecords.push(JSON.stringify({ message: error.message, code: error.code, cause: String(error.cause) })),
    openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
  });
});
afterAll(async () => {
  await app.close();
  await sim.close();
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
  usage.length = 0;
});

const say = (content: string) => [{ role: 'user' as const, content }];

describe('the official openai client', () => {
  it('chat completion: Azure deployment URL, api-key, the answer relayed with its filter results', async () => {
    const completion = await openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: say('Hello') });
    expect(completion.choices[0]?.message.content).toBe('Hello from Azure.');
    expect((completion as unknown as { prompt_filter_results: unknown[] }).prompt_filter_results).toHaveLength(1);
    const [request] = stub.requests;
    expect(request?.url).toBe('/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21');
    expect(request?.headers['api-key']).toBe(AZURE_KEY);
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('streamed chat: the empty first chunk, chunks without delta and the trailing offsets chunk all pass', async () => {
    const client = openAIClient(app.url);
    const final = await client.chat.completions.stream({ model: 'gpt-4o', messages: say('Hello'), stream_options: { include_usage: true } }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Hello from Azure.');
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 4 });
    let text = '';
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o', messages: say('Hello'), stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from Azure.');
  });

  it('an output-filtered stream ends with finish_reason content_filter', async () => {
    const final = await openAIClient(app.url).chat.completions.stream({ model: 'gpt-4o', messages: say('violent') }).finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('content_filter');
    expect(final.choices[0]?.message.content).toBe('Here is how');
  });

  it('Responses API, whole and streamed, over Azure chat completions', async () => {
    const client = openAIClient(app.url);
    const response = await client.responses.create({ model: 'gpt-4o', input: 'Hello', store: false });
    expect(response.output_text).toBe('Hello from Azure.');
    const stream = client.responses.stream({ model: 'gpt-4o', input: 'Hello', store: false });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Hello from Azure.');
    expect(final.usage).toMatchObject({ input_tokens: 21, output_tokens: 4 });
    const filtered = await client.responses.create({ model: 'gpt-4o', input: 'violent', store: false });
    expect(filtered.status).toBe('incomplete');
    expect(filtered.incomplete_details?.reason).toBe('content_filter');
  });

  it('a filtered prompt is a 400 with code content_filter and param prompt', async () => {
    const error = await failure(() => openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: say('blocked words') }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.code).toBe('content_filter');
    expect(bad.param).toBe('prompt');
    expect(bad.message).toMatch(/blocked by the content filter.*violence \(high\)/);
    // No fallback for a client's 400.
    expect(stub.requests).toHaveLength(1);
  });
});

describe('the AI SDK', () => {
  it('createOpenAI(...).chat(model): generateText and streamText', async () => {
    const provider = createOpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY });
    const generated = await generateText({ model: provider.chat('gpt-4o'), prompt: 'Hello', maxRetries: 0 });
    expect(generated.text).toBe('Hello from Azure.');
    expect(generated.finishReason).toBe('stop');
    expect(generated.usage.inputTokens).toBe(21);
    const streamed = streamText({ model: provider.chat('gpt-4o'), prompt: 'Hello', maxRetries: 0 });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe('Hello from Azure.');
    expect(await streamed.finishReason).toBe('stop');
    expect((await streamed.usage).outputTokens).toBe(4);
    const filtered = await generateText({ model: provider.chat('gpt-4o'), prompt: 'violent', maxRetries: 0 });
    expect(filtered.finishReason).toBe('content-filter');
  });

  it('openai(model): the Responses API', async () => {
    const provider = createOpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY });
    const generated = await generateText({ model: provider('gpt-4o'), prompt: 'Hello', maxRetries: 0, providerOptions: { openai: { store: false } } });
    expect(generated.text).toBe('Hello from Azure.');
    const streamed = streamText({ model: provider('gpt-4o'), prompt: 'Hello', maxRetries: 0, providerOptions: { openai: { store: false } } });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe('Hello from Azure.');
  });
});

describe('the messages client on a serveMessages route', () => {
  it('create and stream translate Azure answers; the output filter is a refusal', async () => {
    const client = anthropicClient(app.url);
    const message = await client.messages.create({ model: 'gpt-4o', max_tokens: 100, messages: say('Hello') });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Azure.' }]);
    expect(message.usage).toMatchObject({ input_tokens: 21, output_tokens: 4 });
    const streamed = await client.messages.stream({ model: 'gpt-4o', max_tokens: 100, messages: say('Hello') }).finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: 'Hello from Azure.' }]);
    expect(streamed.stop_reason).toBe('end_turn');
    expect(streamed.usage.output_tokens).toBe(4);
    const refused = await client.messages.stream({ model: 'gpt-4o', max_tokens: 100, messages: say('violent') }).finalMessage();
    expect(refused.stop_reason).toBe('refusal');
    const refusedWhole = await client.messages.create({ model: 'gpt-4o', max_tokens: 100, messages: say('violent') });
    expect(refusedWhole.stop_reason).toBe('refusal');
  });

  it('a filtered prompt is a 400 invalid_request_error in the messages format', async () => {
    const error = await failure(() => anthropicClient(app.url).messages.create({ model: 'gpt-4o', max_tokens: 100, messages: say('blocked words') }));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const bad = error as InstanceType<typeof Anthropic.BadRequestError>;
    expect((bad.error as { error?: { type?: string } }).error?.type).toBe('invalid_request_error');
    expect(bad.message).toContain('blocked by the content filter');
  });
});

describe('retries, fallbacks and the deadline', () => {
  it('a 429 with retry-after is retried after the wait Azure asked for', async () => {
    const started = Date.now();
    const completion = await openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: say(`throttle-once ${started}`) });
    expect(completion.choices[0]?.message.content).toBe('Hello from Azure.');
    expect(stub.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('Azure throttled for good: the vendor’s OpenAI-compatible upstream answers', async () => {
    const completion = await openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: say('throttle-always') });
    expect(completion.choices[0]?.message.content).toContain('throttle-always');
    // The retry-after wait, then the fallback.
    expect(stub.requests).toHaveLength(2);
    expect(usage.at(-1)).toMatchObject({ upstream: 'openai', upstreamModel: 'gpt-4.1' });
  });

  it('the other way round: the OpenAI-compatible upstream down, Azure answers', async () => {
    const completion = await openAIClient(app.url).chat.completions.create({ model: 'gpt-4.1-first', messages: say('Hello') });
    expect(completion.choices[0]?.message.content).toBe('Hello from Azure.');
    expect(usage.at(-1)).toMatchObject({ upstream: 'azure', upstreamModel: 'gpt-4o' });
  });
});

describe('credentials', () => {
  it('Entra ID: the provider is called per request and a refreshed token is used at once (v1 API, deployment in the body)', async () => {
    const client = openAIClient(app.url);
    const before = tokenCalls;
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: say('Hello') });
    currentToken = 'entra-token-2';
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: say('Hello') });
    expect(tokenCalls - before).toBe(2);
    expect(stub.requests.map((request) => request.headers.authorization)).toEqual(['Bearer entra-token-1', 'Bearer entra-token-2']);
    expect(stub.requests.map((request) => request.url)).toEqual(['/openai/v1/chat/completions', '/openai/v1/chat/completions']);
    expect(JSON.parse(stub.requests[0]!.body).model).toBe('gpt-4o-mini');
    expect(stub.requests[0]?.headers['api-key']).toBeUndefined();
  });

  it('key passthrough: the caller’s own key goes to Azure as api-key', async () => {
    const completion = await openAIClient(app.url, CALLER_AZURE_KEY).chat.completions.create({ model: 'mine-4o', messages: say('Hello') });
    expect(completion.choices[0]?.message.content).toBe('Hello from Azure.');
    expect(stub.requests[0]?.headers['api-key']).toBe(CALLER_AZURE_KEY);
  });

  it('no key or token in an error a client gets, or in a hook record', async () => {
    hookRecords.length = 0;
    const errors = [
      await failure(() => openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: say('leak') })),
      await failure(() => openAIClient(app.url).chat.completions.create({ model: 'gpt-4o-mini', messages: say('leak') })),
      await failure(() => anthropicClient(app.url).messages.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: say('leak') })),
      await failure(() => openAIClient(app.url, CALLER_AZURE_KEY).chat.completions.create({ model: 'mine-4o', messages: say('leak') })),
    ];
    // The stub did quote them.
    expect(stub.requests).toHaveLength(4);
    const seen = [...errors.map((error) => `${(error as Error).message} ${JSON.stringify((error as { error?: unknown }).error)}`), ...hookRecords].join('\n');
    expect(seen).toContain('credential was');
    for (const secret of [AZURE_KEY, currentToken, CALLER_AZURE_KEY]) expect(seen).not.toContain(secret);
    expect(seen).toContain('[redacted]');
  });
});

describe('usage, telemetry and files', () => {
  it('onUsage gets the tokens of Azure’s stream; spans name the provider azure.ai.openai', async () => {
    telemetry.reset();
    const stream = await openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: say('Hello'), stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    // The gateway asked for usage for onUsage and hid the usage chunk the caller did not ask for.
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    await eventually(() => expect(usage.at(-1)).toMatchObject({ upstream: 'azure', inputTokens: 21, outputTokens: 4, stream: true }));
    await eventually(() => {
      const span = telemetry.spans().find((candidate) => candidate.kind === SpanKind.CLIENT);
      expect(span?.attributes['gen_ai.provider.name']).toBe('azure.ai.openai');
      expect(span?.attributes['gen_ai.response.id']).toBe('chatcmpl-AzureStream01');
      expect(span?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    });
  });

  it('/v1/files with only chat upstreams: a 404 saying there is no file store', async () => {
    const response = await fetch(`${app.url}/v1/files`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^No file store on this gateway/);
  });
});

describe('the one deadline', () => {
  it('a retry-after wait that would pass the request deadline is not waited: the 429 comes back at once, string code and retry-after kept', async () => {
    const azure = azureOpenAI({ endpoint: stub.endpoint, apiKey: AZURE_KEY, apiVersion: '2024-10-21', deployment: 'gpt4o-prod', name: 'azure-short' });
    const short = await startApp('node', { auth: { keys: [KEY] }, requestTimeoutMs: 600, routes: [{ match: 'gpt-4o', upstream: azure }] });
    try {
      const started = Date.now();
      const error = await failure(() => openAIClient(short.url).chat.completions.create({ model: 'gpt-4o', messages: say('throttle-always') }));
      expect(Date.now() - started).toBeLessThan(900);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      const limited = error as InstanceType<typeof OpenAI.RateLimitError>;
      expect(limited.code).toBe('429');
      expect(limited.headers?.get('retry-after')).toBe('1');
      expect(limited.message).toContain('exceeded token rate limit');
      expect(stub.requests).toHaveLength(1);
    } finally {
      // Closing the app closes its upstreams.
      await short.close();
    }
  });
});

// The official clients through other mounts than the node handler: Express 5 (a framework's router and
// its response object) and Hono (the fetch handler: WHATWG Request/Response at the edge).
describe.each(['express5', 'hono'] as const)('Azure OpenAI through the gateway mounted on %s', (mount) => {
  let mounted: StartedApp;

  beforeAll(async () => {
    const byKey = azureOpenAI({ endpoint: stub.endpoint, apiKey: AZURE_KEY, apiVersion: '2024-10-21', deployment: { 'gpt-4o': 'gpt4o-prod' }, name: 'azure' });
    mounted = await startApp(mount, { auth: { keys: [KEY] }, routes: [{ match: 'gpt-4o', upstream: byKey, serveMessages: true }] });
  });
  afterAll(async () => {
    await mounted.close();
  });

  it('openai client, streamed and not: Azure’s deployment URL and api-key, its odd chunks passed', async () => {
    const client = openAIClient(mounted.url);
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: say('Hello') });
    expect(completion.choices[0]?.message.content).toBe('Hello from Azure.');
    const final = await client.chat.completions.stream({ model: 'gpt-4o', messages: say('Hello'), stream_options: { include_usage: true } }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Hello from Azure.');
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 4 });
    expect(stub.requests.map((request) => request.url)).toEqual(Array(2).fill('/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21'));
    expect(stub.requests.every((request) => request.headers['api-key'] === AZURE_KEY)).toBe(true);
  });

  it('messages client, streamed and not, translated to and from chat completions; the output filter is a refusal', async () => {
    const client = anthropicClient(mounted.url);
    const message = await client.messages.create({ model: 'gpt-4o', max_tokens: 100, messages: say('Hello') });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Azure.' }]);
    const streamed = await client.messages.stream({ model: 'gpt-4o', max_tokens: 100, messages: say('Hello') }).finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: 'Hello from Azure.' }]);
    expect(streamed.stop_reason).toBe('end_turn');
    expect(streamed.usage.output_tokens).toBe(4);
    const refused = await client.messages.stream({ model: 'gpt-4o', max_tokens: 100, messages: say('violent') }).finalMessage();
    expect(refused.stop_reason).toBe('refusal');
  });
});
