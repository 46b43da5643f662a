/**
 * The gateway in front of a Vertex AI stub that checks every path, body,
 * beta and token, with the official clients: the messages client on
 * /v1/messages, the chat client on /v1/chat/completions and /v1/responses,
 * streamed and not; fallbacks from Vertex to the vendor's own API and back;
 * count-tokens; files; telemetry; no Google token in anything a client or
 * hook receives.
 */
import Anthropic from '@anthropic-ai/sdk';
import { SpanKind } from '@opentelemetry/api';
import { createGateway, isGatewayConfigError, messagesUpstream, upstreamFileStore, vertexUpstream, type GatewayError, type UsageRecord } from 'modelgate';
import { createSimulator, type SimulatorServer } from 'modelgate/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCATION, PROJECT, startVertexStub, streamEvents, type VertexStub } from '../helpers/vertex-stub.js';
import { anthropicClient, AUTH, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';

const TOKEN = 'ya29.c.b0AXv0zTGATEWAYTOKEN0123456789abcdef';
const ROTATED = 'ya29.c.ROTATEDTOKEN-abcdef0123456789ghijkl';
const STALE = 'ya29.c.STALE-REVOKED-TOKEN-0123456789abcdef';
const SONNET = 'claude-sonnet-4-5@20250929';
const OPUS = 'claude-opus-4-6';
const user = (content: string) => [{ role: 'user' as const, content }];
const path = (model: string, method = 'rawPredict') => `/v1/projects/${PROJECT}/locations/${LOCATION}/publishers/anthropic/models/${model}:${method}`;

describe('Vertex AI through the gateway', () => {
  const telemetry = createTelemetry();
  let vertex: VertexStub;
  let vendor: SimulatorServer;
  let broken: StubUpstream;
  let brokenStatus = 503;
  let app: StartedApp;
  const usage: UsageRecord[] = [];
  const errors: GatewayError[] = [];

  beforeAll(async () => {
    vertex = await startVertexStub({ tokens: [TOKEN, ROTATED] });
    vendor = await createSimulator().listen();
    broken = await startStubUpstream(() =>
      brokenStatus === 429
        ? { kind: 'json', status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } } }
        : { kind: 'json', status: 503, body: { type: 'error', error: { type: 'api_error', message: 'Unavailable' } } },
    );
    const gcp = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: vertex.baseURL, accessToken: TOKEN, name: 'vertex' });
    // A token from a function: unknown when the gateway is built, so the upstream itself hides it once fetched.
    const viaFunction = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: vertex.baseURL, accessToken: async () => ({ token: ROTATED, expiresAt: Date.now() + 3_600_000 }), name: 'vertex-fn' });
    const revoked = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: vertex.baseURL, accessToken: async () => STALE, name: 'vertex-revoked' });
    const own = messagesUpstream({ baseURL: vendor.url, apiKey: 'sk-vendor-0123456789', name: 'vendor' });
    const failing = messagesUpstream({ baseURL: broken.url, apiKey: 'sk-broken-0123456789', name: 'broken' });
    app = await startApp('node', {
      auth: AUTH,
      routes: [
        { match: 'vendora-sonnet-4-5', upstream: gcp, model: SONNET, fallbacks: [own], retries: 0 },
        { match: 'vendora-opus-4-6', upstream: failing, fallbacks: [{ upstream: gcp, model: OPUS }], retries: 0 },
        { match: 'vendora-sonnet-4-6', upstream: viaFunction, model: 'claude-sonnet-4-6', retries: 0 },
        { match: 'vendora-haiku-4-5', upstream: revoked, model: 'claude-haiku-4-5@20251001', retries: 0 },
      ],
      onUsage: (record) => usage.push(record),
      onError: (event) => errors.push(event.error),
      openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
    });
  });
  afterAll(async () => {
    await app.close();
    await vertex.close();
    await vendor.close();
    await broken.close();
  });
  afterEach(() => {
    vertex.requests.length = 0;
    vertex.script.length = 0;
  });

  const last = () => vertex.requests.at(-1)!;

  it('messages client, not streamed: rawPredict on the route’s Vertex model id', async () => {
    const message = await anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Hello Vertex') });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toBe('Vertex says: Hello Vertex');
    expect(last().problem).toBeUndefined();
    expect(last().url).toBe(path(SONNET));
    expect(last().headers.authorization).toBe(`Bearer ${TOKEN}`);
    await eventually(() => expect(usage.at(-1)).toMatchObject({ upstream: 'vertex', upstreamModel: SONNET, inputTokens: 12, outputTokens: 3, status: 200 }));
  });

  it('messages client, streamed, with a beta Vertex does not know: streamRawPredict, the beta dropped', async () => {
    const stream = anthropicClient(app.url).messages.stream(
      { model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Stream please') },
      { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,some-new-beta-2099-01-01' } },
    );
    const final = await stream.finalMessage();
    expect(final.content[0]?.type === 'text' && final.content[0].text).toBe('Vertex says: Stream please');
    expect(final.stop_reason).toBe('end_turn');
    expect(last().problem).toBeUndefined();
    expect(last().url).toBe(path(SONNET, 'streamRawPredict'));
    expect(last().headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    await eventually(() => expect(usage.at(-1)).toMatchObject({ upstream: 'vertex', stream: true, inputTokens: 12, status: 200 }));
  });

  it('chat client, streamed and not, translated to and from the messages format', async () => {
    const openai = openAIClient(app.url);
    const completion = await openai.chat.completions.create({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Chat here') });
    expect(completion.choices[0]?.message.content).toBe('Vertex says: Chat here');
    const streamed = await openai.chat.completions.stream({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Chat stream') }).finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe('Vertex says: Chat stream');
    expect(streamed.choices[0]?.finish_reason).toBe('stop');
    expect(vertex.requests.every((request) => request.problem === undefined)).toBe(true);
  });

  it('responses: the chat client on /v1/responses, streamed and not', async () => {
    const openai = openAIClient(app.url);
    const response = await openai.responses.create({ model: 'vendora-sonnet-4-5', max_output_tokens: 64, input: 'Responses here' });
    expect(response.output_text).toBe('Vertex says: Responses here');
    const streamed = await openai.responses.stream({ model: 'vendora-sonnet-4-5', max_output_tokens: 64, input: 'Responses stream' }).finalResponse();
    expect(streamed.output_text).toBe('Vertex says: Responses stream');
    expect(vertex.requests.every((request) => request.problem === undefined)).toBe(true);
  });

  it('count_tokens uses count-tokens:rawPredict with the model in the body; where Vertex has none, the local tokenizer', async () => {
    const client = anthropicClient(app.url);
    const counted = await client.messages.countTokens({ model: 'vendora-sonnet-4-5', messages: user('Count these') });
    expect(counted.input_tokens).toBe(42);
    expect(last().url).toBe(path('count-tokens'));
    expect(JSON.parse(last().body).model).toBe(SONNET);
    vertex.script.push({ kind: 'google', status: 404, googleStatus: 'NOT_FOUND', message: 'Publisher model count-tokens is not found in this location.' });
    const local = await client.messages.countTokens({ model: 'vendora-sonnet-4-5', messages: user('Count these') }).withResponse();
    expect(vertex.requests).toHaveLength(2);
    expect(local.response.headers.get('x-modelgate-token-count')).toBe('estimated');
    expect(local.data.input_tokens).toBeGreaterThan(0);
    expect(local.data.input_tokens).not.toBe(42);
  });

  it.each([
    [429, 'RESOURCE_EXHAUSTED'],
    [503, 'UNAVAILABLE'],
  ])('falls back from Vertex (%i %s) to the vendor’s own API', async (status, googleStatus) => {
    vertex.script.push({ kind: 'google', status, googleStatus, message: 'Vertex cannot answer now.' });
    const message = await anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Fall back') });
    expect(vertex.requests).toHaveLength(1);
    expect(message.content[0]?.type === 'text' && message.content[0].text).not.toContain('Vertex says');
    await eventually(() => expect(usage.at(-1)).toMatchObject({ upstream: 'vendor', status: 200 }));
  });

  it.each([429, 503])('falls back from the vendor’s own API (%i) to Vertex', async (status) => {
    brokenStatus = status;
    const message = await anthropicClient(app.url).messages.create({ model: 'vendora-opus-4-6', max_tokens: 64, messages: user('Reverse') });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toBe('Vertex says: Reverse');
    expect(last().url).toBe(path(OPUS));
    expect(last().problem).toBeUndefined();
  });

  it('Vertex errors reach each client in its own format with the right status', async () => {
    vertex.script.push({ kind: 'google', status: 400, googleStatus: 'INVALID_ARGUMENT', message: 'messages.0.content: must not be empty' });
    const messagesError = await failure(() => anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Bad') }));
    expect(messagesError).toBeInstanceOf(Anthropic.BadRequestError);
    expect((messagesError as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'messages.0.content: must not be empty' } });
    vertex.script.push({ kind: 'google', status: 429, googleStatus: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model' });
    const throttled = await failure(() => openAIClient(app.url).chat.completions.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Hi') }));
    expect((throttled as { status: number }).status).toBe(429);
    expect((throttled as { error: unknown }).error).toMatchObject({ type: 'rate_limit_error' });
    vertex.script.push({ kind: 'google', status: 404, googleStatus: 'NOT_FOUND', message: 'Publisher Model `claude-sonnet-4-6` was not found.' });
    const missing = await failure(() => openAIClient(app.url).chat.completions.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Hi') }));
    expect((missing as { status: number }).status).toBe(404);
    vertex.script.push({ kind: 'google', status: 500, googleStatus: 'INTERNAL', message: 'Internal error encountered.' });
    const internal = await failure(() => anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Hi') }, { maxRetries: 0 }));
    expect((internal as { status: number }).status).toBe(500);
    // A token Vertex refuses (401) is the gateway's misconfiguration: a 502 for the caller.
    const refused = await failure(() => openAIClient(app.url).chat.completions.create({ model: 'vendora-haiku-4-5', max_tokens: 64, messages: user('Hi') }));
    expect((refused as { status: number }).status).toBe(502);
    expect(String((refused as Error).message)).toContain('refused the gateway');
    vertex.script.push({ kind: 'google', status: 403, googleStatus: 'PERMISSION_DENIED', message: 'Permission aiplatform.endpoints.predict denied.' });
    const denied = await failure(() => anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user('Hi') }));
    expect((denied as { status: number }).status).toBe(502);
  });

  it('no Google token reaches a client, onError or onUsage', async () => {
    const responses: string[] = [];
    const post = async (route: string, model: string, stream = false): Promise<void> => {
      const response = await fetch(`${app.url}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY, authorization: `Bearer ${KEY}`, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model, max_tokens: 16, stream, messages: user('Leak?') }),
      });
      responses.push(await response.text());
    };
    // The stub's 401 quotes the Authorization header it got, as some proxies do.
    await post('/v1/messages', 'vendora-haiku-4-5');
    await post('/v1/chat/completions', 'vendora-haiku-4-5', true);
    expect(vertex.requests.every((request) => request.problem !== undefined)).toBe(true);
    const quoted = `token ${ROTATED} and ${TOKEN}`;
    vertex.script.push({ kind: 'google', status: 400, googleStatus: 'INVALID_ARGUMENT', message: quoted });
    await post('/v1/messages', 'vendora-sonnet-4-6');
    vertex.script.push({ kind: 'json', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: quoted } } });
    await post('/v1/chat/completions', 'vendora-sonnet-4-6', true);
    vertex.script.push({ kind: 'sse', events: [...streamEvents('partial').slice(0, 3), { type: 'error', error: { type: 'api_error', message: quoted } }] });
    await post('/v1/messages', 'vendora-sonnet-4-6', true);
    expect(responses.slice(2, 4).every((body) => body.includes('[redacted]'))).toBe(true);
    await eventually(() => expect(usage.length).toBeGreaterThan(0));
    const seen = JSON.stringify({ responses, errors: errors.map((error) => ({ message: error.message, headers: error.headers, cause: String(error.cause) })), usage });
    for (const secret of [TOKEN, ROTATED, STALE, ROTATED.slice(0, 16), STALE.slice(8, 24)]) expect(seen).not.toContain(secret);
  });

  it('telemetry names the provider gcp.vertex_ai', async () => {
    telemetry.reset();
    await anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Traced') });
    await eventually(() => expect(telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT)).toHaveLength(1));
    const [client] = telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(client!.attributes).toMatchObject({ 'gen_ai.provider.name': 'gcp.vertex_ai', 'gen_ai.request.model': SONNET, 'server.address': '127.0.0.1' });
  });
});

describe('Vertex AI and the gateway’s configuration', () => {
  const gcp = () => vertexUpstream({ projectId: PROJECT, region: 'global', accessToken: TOKEN });

  it('refuses keyPassthrough on a Vertex route with a configuration error', () => {
    let thrown: unknown;
    try {
      createGateway({ auth: AUTH, routes: [{ match: 'vendora-*', upstream: gcp(), keyPassthrough: true }] });
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayConfigError(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/routes\[0\]\.keyPassthrough cannot be used with upstream "aiplatform\.googleapis\.com"/);
  });

  it('files: Vertex is no file store unless given, and upstreamFileStore refuses it', async () => {
    expect(() => upstreamFileStore(gcp())).toThrow(/holds no files/);
    const onlyVertex = await startApp('node', { auth: AUTH, routes: [{ match: 'vendora-*', upstream: gcp() }] });
    try {
      const none = await fetch(`${onlyVertex.url}/v1/files`, { headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } });
      expect(none.status).toBe(404);
      expect(await none.text()).toContain('No file store on this gateway');
    } finally {
      await onlyVertex.close();
    }
  });
});

// The official clients through other mounts than the node handler: Express 5 (a framework's router and
// its response object) and Hono (the fetch handler: WHATWG Request/Response at the edge).
describe.each(['express5', 'hono'] as const)('Vertex AI through the gateway mounted on %s', (mount) => {
  let vertex: VertexStub;
  let app: StartedApp;

  beforeAll(async () => {
    vertex = await startVertexStub({ tokens: [TOKEN] });
    const gcp = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: vertex.baseURL, accessToken: TOKEN, name: 'vertex' });
    app = await startApp(mount, { auth: AUTH, routes: [{ match: 'vendora-sonnet-4-5', upstream: gcp, model: SONNET, retries: 0 }] });
  });
  afterAll(async () => {
    await app.close();
    await vertex.close();
  });

  const last = () => vertex.requests.at(-1)!;
  const betas = { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,some-new-beta-2099-01-01' } };
  const dropped = 'anthropic-beta some-new-beta-2099-01-01 is not available on Google Vertex AI; not sent';

  it('messages client, streamed and not; a beta Vertex does not know is left out and reported in x-modelgate-warnings', async () => {
    const client = anthropicClient(app.url);
    const whole = await client.messages.create({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Hello Vertex') }, betas).withResponse();
    expect(whole.data.content[0]?.type === 'text' && whole.data.content[0].text).toBe('Vertex says: Hello Vertex');
    expect(whole.response.headers.get('x-modelgate-warnings')).toBe(dropped);
    expect(last().url).toBe(path(SONNET));
    expect(last().headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    const stream = client.messages.stream({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Stream please') }, betas);
    const { response } = await stream.withResponse();
    const final = await stream.finalMessage();
    expect(final.content[0]?.type === 'text' && final.content[0].text).toBe('Vertex says: Stream please');
    expect(final.stop_reason).toBe('end_turn');
    expect(response.headers.get('x-modelgate-warnings')).toBe(dropped);
    expect(last().url).toBe(path(SONNET, 'streamRawPredict'));
    expect(last().headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(vertex.requests.every((request) => request.problem === undefined)).toBe(true);
  });

  it('chat client, streamed and not, translated to and from the messages format', async () => {
    const openai = openAIClient(app.url);
    const completion = await openai.chat.completions.create({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Chat here') });
    expect(completion.choices[0]?.message.content).toBe('Vertex says: Chat here');
    const streamed = await openai.chat.completions.stream({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: user('Chat stream') }).finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe('Vertex says: Chat stream');
    expect(streamed.choices[0]?.finish_reason).toBe('stop');
    expect(vertex.requests.every((request) => request.problem === undefined)).toBe(true);
  });
});
