/**
 * The gateway in front of a Bedrock runtime stub that verifies every SigV4
 * signature, with the official clients: the messages client on
 * /v1/messages, the chat client on /v1/chat/completions and /v1/responses,
 * streamed and not; fallbacks from Bedrock to the vendor's own API and
 * back; CountTokens; files; telemetry; no credential in anything a client
 * or hook receives.
 */
import Anthropic from '@anthropic-ai/sdk';
import { SpanKind } from '@opentelemetry/api';
import { bedrockUpstream, createGateway, isGatewayConfigError, messagesUpstream, upstreamFileStore, type GatewayError, type UsageRecord } from 'modelgate';
import { createSimulator, type SimulatorServer } from 'modelgate/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BedrockStub, exceptionFrame, framesOf, REGION, startBedrockStub, streamEvents } from '../helpers/bedrock-stub.js';
import { anthropicClient, AUTH, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';

const KEYS = { accessKeyId: 'AKIDGATEWAY00001', secretAccessKey: 'gw/Secret+Key0123456789abcdefEXAMPLE', sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLETOKEN-0123456789abcdef' };
const ROLE = { accessKeyId: 'ASIAROLE00000001', secretAccessKey: 'role/Secret+Key0123456789abcdefROLE', sessionToken: 'IQoJROLESESSION-TOKEN-abcdef0123456789', expiration: new Date(Date.now() + 3_600_000) };
const WRONG = { ...KEYS, secretAccessKey: 'wrong/Secret+Key0123456789abcdefEXAMPLE' };
const SONNET = 'us.anthropic.claude-sonnet-4-6-v1:0';
const OPUS = 'anthropic.claude-opus-4-6-v1:0';
const user = (content: string) => [{ role: 'user' as const, content }];

describe('Bedrock through the gateway', () => {
  const telemetry = createTelemetry();
  let bedrock: BedrockStub;
  let vendor: SimulatorServer;
  let broken: StubUpstream;
  let app: StartedApp;
  const usage: UsageRecord[] = [];
  const errors: GatewayError[] = [];

  beforeAll(async () => {
    bedrock = await startBedrockStub({ credentials: [KEYS, ROLE] });
    vendor = await createSimulator().listen();
    broken = await startStubUpstream([{ kind: 'json', status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }]);
    const aws = bedrockUpstream({ region: REGION, endpoint: bedrock.url, credentials: KEYS, name: 'bedrock' });
    // Credentials from a function: unknown when the gateway is built, so the upstream itself hides them once fetched.
    const viaProvider = bedrockUpstream({ region: REGION, endpoint: bedrock.url, credentials: async () => ROLE, name: 'bedrock-provider' });
    const misconfigured = bedrockUpstream({ region: REGION, endpoint: bedrock.url, credentials: WRONG, name: 'bedrock-wrong' });
    const own = messagesUpstream({ baseURL: vendor.url, apiKey: 'sk-vendor-0123456789', name: 'vendor' });
    const overloaded = messagesUpstream({ baseURL: broken.url, apiKey: 'sk-broken-0123456789', name: 'broken' });
    app = await startApp('node', {
      auth: AUTH,
      routes: [
        { match: 'vendora-sonnet-4-6', upstream: aws, model: SONNET, fallbacks: [own], retries: 0 },
        { match: 'vendora-opus-4-6', upstream: overloaded, fallbacks: [{ upstream: aws, model: OPUS }], retries: 0 },
        { match: 'vendora-sonnet-4-5', upstream: viaProvider, model: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0', retries: 0 },
        { match: 'vendora-haiku-4-5', upstream: misconfigured, model: 'anthropic.claude-haiku-4-5-v1:0', retries: 0 },
      ],
      onUsage: (record) => usage.push(record),
      onError: (event) => errors.push(event.error),
      openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
    });
  });
  afterAll(async () => {
    await app.close();
    await bedrock.close();
    await vendor.close();
    await broken.close();
  });
  afterEach(() => {
    bedrock.requests.length = 0;
    bedrock.script.length = 0;
  });

  const lastBedrockRequest = () => bedrock.requests.at(-1)!;

  it('messages client, not streamed: the route model is the Bedrock profile id, signed', async () => {
    const message = await anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Hello Bedrock') });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toBe('Bedrock says: Hello Bedrock');
    expect(lastBedrockRequest().authProblem).toBeUndefined();
    expect(lastBedrockRequest().url).toBe('/model/us.anthropic.claude-sonnet-4-6-v1%3A0/invoke');
    expect(lastBedrockRequest().canonicalUri).toContain('%253A0');
    await eventually(() => expect(usage.at(-1)).toMatchObject({ upstream: 'bedrock', upstreamModel: SONNET, inputTokens: 12, outputTokens: 3, status: 200 }));
  });

  it('messages client, streamed: the event stream arrives as the messages events', async () => {
    const stream = anthropicClient(app.url).messages.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Stream please') });
    const final = await stream.finalMessage();
    expect(final.content[0]?.type === 'text' && final.content[0].text).toBe('Bedrock says: Stream please');
    expect(final.stop_reason).toBe('end_turn');
    expect(lastBedrockRequest().url).toMatch(/invoke-with-response-stream$/);
    await eventually(() => expect(usage.at(-1)).toMatchObject({ upstream: 'bedrock', stream: true, inputTokens: 12, status: 200 }));
  });

  it('prompt caching: cache_control goes to Bedrock, and its cache usage comes back', async () => {
    bedrock.script.push({
      kind: 'writes',
      writes: [framesOf(streamEvents('cached', 'claude-sonnet-4-6', { cache_creation_input_tokens: 2048, cache_read_input_tokens: 0 }))],
    });
    const system = [{ type: 'text' as const, text: 'A long shared prefix.', cache_control: { type: 'ephemeral' as const } }];
    const final = await anthropicClient(app.url).messages.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, system, messages: user('Hi') }).finalMessage();
    expect(final.usage.cache_creation_input_tokens).toBe(2048);
    expect(JSON.parse(lastBedrockRequest().body).system).toEqual(system);
    await eventually(() => expect(usage.at(-1)).toMatchObject({ upstream: 'bedrock', cacheCreationInputTokens: 2048, cacheReadInputTokens: 0 }));
  });

  it('chat client, streamed and not, translated to and from the messages format', async () => {
    const openai = openAIClient(app.url);
    const completion = await openai.chat.completions.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Chat here') });
    expect(completion.choices[0]?.message.content).toBe('Bedrock says: Chat here');
    const streamed = await openai.chat.completions.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Chat stream') }).finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe('Bedrock says: Chat stream');
    expect(streamed.choices[0]?.finish_reason).toBe('stop');
    expect(bedrock.requests.every((request) => request.authProblem === undefined)).toBe(true);
  });

  it('responses: the chat client on /v1/responses', async () => {
    const response = await openAIClient(app.url).responses.create({ model: 'vendora-sonnet-4-6', max_output_tokens: 64, input: 'Responses here' });
    expect(response.output_text).toBe('Bedrock says: Responses here');
  });

  it('count_tokens uses CountTokens on the foundation model; without it, the local tokenizer', async () => {
    const client = anthropicClient(app.url);
    const counted = await client.messages.countTokens({ model: 'vendora-sonnet-4-6', messages: user('Count these') });
    expect(counted.input_tokens).toBe(42);
    expect(lastBedrockRequest().url).toBe('/model/anthropic.claude-sonnet-4-6-v1%3A0/count-tokens');
    bedrock.script.push({ kind: 'error', status: 400, errorType: 'ValidationException', message: 'This model does not support CountTokens.' });
    const local = await client.messages.countTokens({ model: 'vendora-sonnet-4-5', messages: user('Count these') }).withResponse();
    expect(lastBedrockRequest().url).toBe('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/count-tokens');
    expect(local.response.headers.get('x-modelgate-token-count')).toBe('estimated');
    expect(local.data.input_tokens).toBeGreaterThan(0);
    expect(local.data.input_tokens).not.toBe(42);
  });

  it('falls back from Bedrock (503 ServiceUnavailable) to the vendor’s own API', async () => {
    bedrock.script.push({ kind: 'error', status: 503, errorType: 'ServiceUnavailableException', message: 'Bedrock is unavailable.' });
    const message = await anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Fall back') });
    expect(bedrock.requests).toHaveLength(1);
    expect(message.content[0]?.type === 'text' && message.content[0].text).not.toContain('Bedrock says');
    await eventually(() => expect(usage.at(-1)).toMatchObject({ upstream: 'vendor', status: 200 }));
  });

  it('falls back when the stream opens with a throttlingException frame', async () => {
    bedrock.script.push({ kind: 'writes', writes: [exceptionFrame('throttlingException', 'Too many tokens, please wait.')] });
    const final = await anthropicClient(app.url).messages.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Throttled') }).finalMessage();
    expect(bedrock.requests).toHaveLength(1);
    expect(final.content[0]?.type === 'text' && final.content[0].text).not.toContain('Bedrock says');
  });

  it('falls back from the vendor’s own API (529) to Bedrock', async () => {
    const message = await anthropicClient(app.url).messages.create({ model: 'vendora-opus-4-6', max_tokens: 64, messages: user('Reverse') });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toBe('Bedrock says: Reverse');
    expect(lastBedrockRequest().url).toBe('/model/anthropic.claude-opus-4-6-v1%3A0/invoke');
    expect(lastBedrockRequest().authProblem).toBeUndefined();
  });

  it('Bedrock errors reach each client in its own format with the right status', async () => {
    bedrock.script.push({ kind: 'error', status: 400, errorType: 'ValidationException', message: 'messages.0.content: must not be empty' });
    const messagesError = await failure(() => anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Bad') }));
    expect(messagesError).toBeInstanceOf(Anthropic.BadRequestError);
    expect((messagesError as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'messages.0.content: must not be empty' } });
    bedrock.script.push({ kind: 'error', status: 429, errorType: 'ThrottlingException', message: 'Rate exceeded' });
    const throttled = await failure(() => openAIClient(app.url).chat.completions.create({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Hi') }));
    expect((throttled as { status: number }).status).toBe(429);
    expect((throttled as { error: unknown }).error).toMatchObject({ message: 'Rate exceeded', type: 'rate_limit_error' });
    // Signed with a wrong secret: Bedrock's 403 is the gateway's misconfiguration, a 502 for the caller.
    const refused = await failure(() => openAIClient(app.url).chat.completions.create({ model: 'vendora-haiku-4-5', max_tokens: 64, messages: user('Hi') }));
    expect((refused as { status: number }).status).toBe(502);
    expect(String((refused as Error).message)).toContain('refused the gateway');
  });

  it('a modelStreamErrorException after content ends the stream with an error the client raises', async () => {
    bedrock.script.push({ kind: 'writes', writes: [framesOf(streamEvents('partial answer').slice(0, 3)), exceptionFrame('modelStreamErrorException', 'The model stopped.')] });
    const error = await failure(() => anthropicClient(app.url).messages.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Break') }).finalMessage());
    expect(String((error as Error).message)).toContain('The model stopped.');
    bedrock.script.push({ kind: 'writes', writes: [framesOf(streamEvents('partial answer').slice(0, 3))] });
    const cut = await failure(() => openAIClient(app.url).chat.completions.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Cut') }).finalChatCompletion());
    expect(String((cut as Error).message)).toMatch(/ended the stream before it was complete/);
  });

  it('no AWS secret, session token or key reaches a client, onError or onUsage', async () => {
    const responses: string[] = [];
    const post = async (path: string, model: string, stream = false): Promise<void> => {
      const response = await fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY, authorization: `Bearer ${KEY}`, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model, max_tokens: 16, stream, messages: user('Leak?') }),
      });
      responses.push(await response.text());
    };
    // The stub's 403 quotes the session token, as AWS quotes the canonical request.
    await post('/v1/messages', 'vendora-haiku-4-5');
    await post('/v1/chat/completions', 'vendora-haiku-4-5');
    expect(bedrock.requests.every((request) => request.authProblem !== undefined)).toBe(true);
    // Bedrock messages that quote the credentials, in an HTTP error and in an exception frame mid-stream.
    const quoted = `token ${ROLE.sessionToken} secret ${ROLE.secretAccessKey}`;
    bedrock.script.push({ kind: 'error', status: 400, errorType: 'ValidationException', message: quoted });
    await post('/v1/messages', 'vendora-sonnet-4-5');
    bedrock.script.push({ kind: 'writes', writes: [framesOf(streamEvents('partial').slice(0, 3)), exceptionFrame('internalServerException', quoted)] });
    await post('/v1/messages', 'vendora-sonnet-4-5', true);
    bedrock.script.push({ kind: 'writes', writes: [framesOf(streamEvents('partial').slice(0, 3)), exceptionFrame('internalServerException', quoted)] });
    await post('/v1/chat/completions', 'vendora-sonnet-4-5', true);
    expect(responses.slice(2).every((text) => text.includes('[redacted]'))).toBe(true);
    await eventually(() => expect(usage.length).toBeGreaterThan(0));
    const seen = JSON.stringify({ responses, errors: errors.map((error) => ({ message: error.message, headers: error.headers, cause: String(error.cause) })), usage });
    for (const secret of [KEYS.secretAccessKey, KEYS.sessionToken, WRONG.secretAccessKey, ROLE.secretAccessKey, ROLE.sessionToken, ROLE.sessionToken.slice(0, 12), ROLE.secretAccessKey.slice(4, 16)]) expect(seen).not.toContain(secret);
  });

  it('telemetry names the provider aws.bedrock', async () => {
    telemetry.reset();
    await anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Traced') });
    await eventually(() => expect(telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT)).toHaveLength(1));
    const [client] = telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(client!.attributes).toMatchObject({ 'gen_ai.provider.name': 'aws.bedrock', 'gen_ai.request.model': SONNET, 'server.address': '127.0.0.1' });
  });
});

describe('Bedrock and the gateway’s configuration', () => {
  const aws = () => bedrockUpstream({ region: REGION, credentials: KEYS });

  it('refuses keyPassthrough on a Bedrock route with a configuration error', () => {
    let thrown: unknown;
    try {
      createGateway({ auth: AUTH, routes: [{ match: 'vendora-*', upstream: aws(), keyPassthrough: true }] });
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayConfigError(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/routes\[0\]\.keyPassthrough cannot be used with upstream "bedrock-runtime\.us-east-1\.amazonaws\.com"/);
  });

  it('files: Bedrock is no file store unless given, and upstreamFileStore refuses it', async () => {
    expect(() => upstreamFileStore(aws())).toThrow(/holds no files/);
    const onlyBedrock = await startApp('node', { auth: AUTH, routes: [{ match: 'vendora-*', upstream: aws() }] });
    try {
      const none = await fetch(`${onlyBedrock.url}/v1/files`, { headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } });
      expect(none.status).toBe(404);
      expect(await none.text()).toContain('No file store on this gateway');
    } finally {
      await onlyBedrock.close();
    }
  });
});

// The official clients through other mounts than the node handler: Express 5 (a framework's router and
// its response object) and Hono (the fetch handler: WHATWG Request/Response at the edge).
describe.each(['express5', 'hono'] as const)('Bedrock through the gateway mounted on %s', (mount) => {
  let bedrock: BedrockStub;
  let app: StartedApp;

  beforeAll(async () => {
    bedrock = await startBedrockStub({ credentials: [KEYS] });
    const aws = bedrockUpstream({ region: REGION, endpoint: bedrock.url, credentials: KEYS, name: 'bedrock' });
    app = await startApp(mount, { auth: AUTH, routes: [{ match: 'vendora-sonnet-4-6', upstream: aws, model: SONNET, retries: 0 }] });
  });
  afterAll(async () => {
    await app.close();
    await bedrock.close();
  });

  const lastBody = () => JSON.parse(bedrock.requests.at(-1)!.body) as { anthropic_beta?: string[] };
  // A beta the route allows (not one reaching the vendor account's resources, which the route refuses first).
  const betas = { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,some-new-beta-2099-01-01' } };
  const dropped = 'anthropic-beta some-new-beta-2099-01-01 is not available on Amazon Bedrock; not sent';

  it('messages client, streamed and not; a beta Bedrock does not know is left out and reported in x-modelgate-warnings', async () => {
    const client = anthropicClient(app.url);
    const whole = await client.messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Hello Bedrock') }, betas).withResponse();
    expect(whole.data.content[0]?.type === 'text' && whole.data.content[0].text).toBe('Bedrock says: Hello Bedrock');
    expect(whole.response.headers.get('x-modelgate-warnings')).toBe(dropped);
    expect(lastBody().anthropic_beta).toEqual(['interleaved-thinking-2025-05-14']);
    const stream = client.messages.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Stream please') }, betas);
    const { response } = await stream.withResponse();
    const final = await stream.finalMessage();
    expect(final.content[0]?.type === 'text' && final.content[0].text).toBe('Bedrock says: Stream please');
    expect(final.stop_reason).toBe('end_turn');
    expect(response.headers.get('x-modelgate-warnings')).toBe(dropped);
    expect(bedrock.requests.at(-1)!.url).toMatch(/invoke-with-response-stream$/);
    expect(lastBody().anthropic_beta).toEqual(['interleaved-thinking-2025-05-14']);
    expect(bedrock.requests.every((request) => request.authProblem === undefined)).toBe(true);
  });

  it('chat client, streamed and not, translated to and from the messages format', async () => {
    const openai = openAIClient(app.url);
    const completion = await openai.chat.completions.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Chat here') });
    expect(completion.choices[0]?.message.content).toBe('Bedrock says: Chat here');
    const streamed = await openai.chat.completions.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Chat stream') }).finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe('Bedrock says: Chat stream');
    expect(streamed.choices[0]?.finish_reason).toBe('stop');
    expect(bedrock.requests.every((request) => request.authProblem === undefined)).toBe(true);
  });
});
