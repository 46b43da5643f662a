/**
 * OpenTelemetry GenAI traces and metrics through real HTTP and the official
 * clients, collected by the SDK's in-memory exporter and an on-demand metric
 * reader. Expected names, attributes and bucket boundaries are those of the
 * semantic conventions (v1.41, docs/gen-ai/gen-ai-spans.md and
 * gen-ai-metrics.md), typed here from those documents.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type Anthropic from '@anthropic-ai/sdk';
import { openAICompatible } from 'modelgate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';
import { createTelemetry, eventually, histogramPoints } from '../helpers/telemetry.js';

const PROMPT = 'Describe the moon in two sentences, quietly.';
const user = [{ role: 'user' as const, content: PROMPT }];
const UPSTREAM_KEY = 'sk-upstream-secret-9f8e7d6c5b4a';
/** semantic conventions: gen_ai.client.operation.duration (and the chunk timings) buckets, in seconds. */
const CONVENTION_SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
/** semantic conventions: gen_ai.client.token.usage buckets. */
const CONVENTION_TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

const telemetry = createTelemetry();
let app: StartedApp;
let stub: StubUpstream;
let brokenStub: StubUpstream;

const clientSpans = () => telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT);
const requestSpans = () => telemetry.spans().filter((span) => span.kind !== SpanKind.CLIENT);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

beforeAll(async () => {
  // The stub answers 503 once (asking for a 1 ms pause), then a chat completion.
  stub = await startStubUpstream((_request, index) =>
    index % 2 === 0
      ? { kind: 'json', status: 503, headers: { 'retry-after-ms': '1' }, body: { error: { message: 'busy', type: 'server_error' } } }
      : {
          kind: 'json',
          body: {
            id: 'chatcmpl-stub-1',
            object: 'chat.completion',
            created: 1,
            model: 'stub-model-2026-01-01',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'length' }],
            usage: { prompt_tokens: 21, completion_tokens: 3, total_tokens: 24, prompt_tokens_details: { cached_tokens: 5 } },
          },
        },
  );
  const stubUpstream = openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: UPSTREAM_KEY, name: 'stub' });
  // A 200 whose JSON body is cut short: the gateway answers 502.
  brokenStub = await startStubUpstream(() => ({ kind: 'text', headers: { 'content-type': 'application/json' }, body: '{"id":"chatcmpl-x","choices":[' }));
  const brokenUpstream = openAICompatible({ baseURL: `${brokenStub.url}/v1`, apiKey: UPSTREAM_KEY, name: 'broken' });
  const { createSimulator } = await import('modelgate/testing');
  const simulator = createSimulator();
  app = await startApp('express5', {
    auth: AUTH,
    routes: [
      { match: 'stub-model', upstream: stubUpstream, retries: 1 },
      { match: 'broken-model', upstream: brokenUpstream, retries: 0 },
      { match: (model) => model.startsWith('vendora-'), upstream: simulator.upstreams.messages },
      { match: '*', upstream: simulator.upstreams.chat },
    ],
    openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
  });
});
afterAll(async () => {
  await app.close();
  await stub.close();
  await brokenStub.close();
});
beforeEach(() => telemetry.reset());

describe('traces', () => {
  it('chat relayed: a server span and a CLIENT child named "chat <model>" with the GenAI attributes', async () => {
    const { data, request_id } = await openAIClient(app.url)
      .chat.completions.create({ model: 'gpt-4o', messages: user, max_tokens: 64, temperature: 0.5, top_p: 0.9, stop: ['END'] })
      .withResponse();
    await eventually(() => expect(requestSpans()).toHaveLength(1));
    const [server] = requestSpans();
    const [client] = clientSpans();
    expect(server!.name).toBe('POST /v1/chat/completions');
    expect(server!.kind).toBe(SpanKind.SERVER);
    expect(server!.attributes).toMatchObject({ 'http.response.status_code': 200, 'gen_ai.request.model': 'gpt-4o', 'modelgate.request_id': request_id });
    expect(client!.name).toBe('chat gpt-4o');
    expect(parentOf(client!)).toBe(server!.spanContext().spanId);
    expect(client!.spanContext().traceId).toBe(server!.spanContext().traceId);
    expect(client!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.temperature': 0.5,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.request.stop_sequences': ['END'],
      'gen_ai.request.stream': false,
      'gen_ai.response.id': data.id,
      'gen_ai.response.model': data.model,
      'gen_ai.response.finish_reasons': [data.choices[0]!.finish_reason],
      'gen_ai.usage.input_tokens': data.usage!.prompt_tokens,
      'gen_ai.usage.output_tokens': data.usage!.completion_tokens,
    });
    expect(client!.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('chat translated to the messages format: provider anthropic, the upstream message id, input tokens with the cache', async () => {
    const { data } = await openAIClient(app.url).chat.completions.create({ model: 'vendora-sonnet-4-6', messages: user }).withResponse();
    await eventually(() => expect(clientSpans()).toHaveLength(1));
    const [client] = clientSpans();
    expect(client!.name).toBe('chat vendora-sonnet-4-6');
    expect(client!.attributes['gen_ai.provider.name']).toBe('anthropic');
    // The upstream's own id (the client got a chat id made by the gateway).
    expect(client!.attributes['gen_ai.response.id']).toMatch(/^msg_/);
    expect(client!.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
    // Chat prompt_tokens counts fresh + cache input, as the convention's input_tokens does.
    expect(client!.attributes['gen_ai.usage.input_tokens']).toBe(data.usage!.prompt_tokens);
    expect(client!.attributes['gen_ai.usage.output_tokens']).toBe(data.usage!.completion_tokens);
  });

  it('messages streamed: stream flag, time to first chunk, usage summed with the cache tokens', async () => {
    const final = await anthropicClient(app.url)
      .messages.stream({ model: 'vendora-opus-4-6', max_tokens: 128, messages: user, stop_sequences: ['###'], top_k: 5 } as Anthropic.MessageStreamParams)
      .finalMessage();
    await eventually(() => expect(requestSpans()).toHaveLength(1));
    const [client] = clientSpans();
    const usage = final.usage;
    expect(client!.name).toBe('chat vendora-opus-4-6');
    expect(client!.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.request.max_tokens': 128,
      'gen_ai.request.top_k': 5,
      'gen_ai.request.stop_sequences': ['###'],
      'gen_ai.response.id': final.id,
      'gen_ai.response.model': final.model,
      'gen_ai.response.finish_reasons': [final.stop_reason],
      'gen_ai.usage.input_tokens': usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
      'gen_ai.usage.output_tokens': usage.output_tokens,
    });
    if (usage.cache_read_input_tokens != null) expect(client!.attributes['gen_ai.usage.cache_read.input_tokens']).toBe(usage.cache_read_input_tokens);
    if (usage.cache_creation_input_tokens != null) expect(client!.attributes['gen_ai.usage.cache_creation.input_tokens']).toBe(usage.cache_creation_input_tokens);
    const ttfc = client!.attributes['gen_ai.response.time_to_first_chunk'];
    expect(typeof ttfc).toBe('number');
    expect(ttfc).toBeGreaterThan(0);
    expect(ttfc).toBeLessThan(30);
  });

  it('retried: one CLIENT span per attempt, the failed one marked with error.type, each sent its own traceparent', async () => {
    const before = stub.requests.length;
    const { data } = await openAIClient(app.url).chat.completions.create({ model: 'stub-model', messages: user }).withResponse();
    await eventually(() => expect(requestSpans()).toHaveLength(1));
    const [server] = requestSpans();
    const attempts = clientSpans().sort((a, b) => a.startTime[1] - b.startTime[1] + (a.startTime[0] - b.startTime[0]) * 1e9);
    expect(attempts.map((span) => span.name)).toEqual(['chat stub-model', 'chat stub-model']);
    expect(attempts.map(parentOf)).toEqual([server!.spanContext().spanId, server!.spanContext().spanId]);
    expect(attempts[0]!.attributes['error.type']).toBe('503');
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]!.attributes['error.type']).toBeUndefined();
    const port = Number(new URL(stub.url).port);
    for (const span of attempts) expect(span.attributes).toMatchObject({ 'server.address': '127.0.0.1', 'server.port': port, 'gen_ai.provider.name': 'openai' });
    expect(attempts[1]!.attributes).toMatchObject({
      'gen_ai.response.id': data.id,
      'gen_ai.response.model': 'stub-model-2026-01-01',
      'gen_ai.response.finish_reasons': ['length'],
      'gen_ai.usage.input_tokens': 21,
      'gen_ai.usage.cache_read.input_tokens': 5,
      'gen_ai.usage.output_tokens': 3,
    });
    const sent = stub.requests.slice(before).map((request) => request.headers.traceparent);
    expect(sent).toEqual(attempts.map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`));
  });

  it('a 200 the gateway refuses (JSON cut short): the attempt span carries the 502 error, not a success', async () => {
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'broken-model', messages: user }),
    });
    expect(response.status).toBe(502);
    await response.arrayBuffer();
    await eventually(() => expect(requestSpans()).toHaveLength(1));
    const [attempt] = clientSpans();
    expect(attempt!.name).toBe('chat broken-model');
    expect(attempt!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempt!.attributes['error.type']).toBe('upstream_error');
  });

  it("continues the caller's trace (traceparent)", async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parent = 'b7ad6b7169203331';
    await openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: user }, { headers: { traceparent: `00-${traceId}-${parent}-01` } });
    await eventually(() => expect(requestSpans()).toHaveLength(1));
    const [server] = requestSpans();
    expect(server!.spanContext().traceId).toBe(traceId);
    expect(parentOf(server!)).toBe(parent);
  });

  it('failed at the rules: only the request span, with error.type and the 400', async () => {
    const error = await failure(() =>
      anthropicClient(app.url).messages.create({ model: 'vendora-opus-4-7', max_tokens: 8, temperature: 0.3, messages: user } as Anthropic.MessageCreateParamsNonStreaming),
    );
    expect(error).toMatchObject({ status: 400 });
    await eventually(() => expect(requestSpans()).toHaveLength(1));
    const [server] = requestSpans();
    expect(clientSpans()).toHaveLength(0);
    expect(server!.name).toBe('POST /v1/messages');
    expect(server!.status.code).toBe(SpanStatusCode.ERROR);
    expect(server!.attributes['http.response.status_code']).toBe(400);
    expect(['invalid_request', 'unsupported_parameter']).toContain(server!.attributes['error.type']);
  });

  it('unauthenticated: a 401 request span with error.type, no upstream span', async () => {
    await expect(openAIClient(app.url, 'sk-wrong-key-000000000000').chat.completions.create({ model: 'gpt-4o', messages: user })).rejects.toMatchObject({ status: 401 });
    await eventually(() => expect(requestSpans()).toHaveLength(1));
    const [server] = requestSpans();
    expect(clientSpans()).toHaveLength(0);
    expect(server!.attributes).toMatchObject({ 'http.response.status_code': 401, 'error.type': 'authentication_failed' });
    expect(server!.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('metrics', () => {
  it('token usage, duration and the stream timings, with the convention bucket boundaries', async () => {
    const final = await anthropicClient(app.url).messages.stream({ model: 'vendora-haiku-4-5', max_tokens: 64, messages: user }).finalMessage();
    await eventually(() => expect(requestSpans().length).toBeGreaterThan(0));
    const metrics = await telemetry.metrics();
    const tokens = histogramPoints(metrics.get('gen_ai.client.token.usage')).filter((point) => point.attributes['gen_ai.request.model'] === 'vendora-haiku-4-5');
    expect(metrics.get('gen_ai.client.token.usage')?.descriptor.unit).toBe('{token}');
    const output = tokens.find((point) => point.attributes['gen_ai.token.type'] === 'output');
    expect(output?.value.sum).toBe(final.usage.output_tokens);
    expect(output?.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.response.model': final.model });
    expect(tokens.find((point) => point.attributes['gen_ai.token.type'] === 'input')).toBeDefined();
    expect(output?.value.buckets.boundaries).toEqual(CONVENTION_TOKENS);
    for (const name of ['gen_ai.client.operation.duration', 'gen_ai.client.operation.time_to_first_chunk', 'gen_ai.client.operation.time_per_output_chunk']) {
      const points = histogramPoints(metrics.get(name)).filter((point) => point.attributes['gen_ai.request.model'] === 'vendora-haiku-4-5');
      expect(points.length, name).toBeGreaterThan(0);
      expect(metrics.get(name)?.descriptor.unit).toBe('s');
      expect(points[0]!.value.buckets.boundaries).toEqual(CONVENTION_SECONDS);
      expect(points[0]!.value.count).toBeGreaterThan(0);
    }
  });

  it('a failed attempt records its duration with error.type', async () => {
    await openAIClient(app.url).chat.completions.create({ model: 'stub-model', messages: user });
    await eventually(() => expect(requestSpans().length).toBeGreaterThan(0));
    const points = histogramPoints((await telemetry.metrics()).get('gen_ai.client.operation.duration'))
      .filter((point) => point.attributes['gen_ai.request.model'] === 'stub-model');
    expect(points.find((point) => point.attributes['error.type'] === '503')?.value.count).toBeGreaterThan(0);
    expect(points.find((point) => point.attributes['error.type'] === undefined)?.value.count).toBeGreaterThan(0);
  });
});

describe('secrets and content', () => {
  it('no caller key, upstream key or prompt text in any span or metric attribute', async () => {
    await openAIClient(app.url).chat.completions.create({ model: 'stub-model', messages: user });
    await openAIClient(app.url).chat.completions.create({ model: 'vendora-sonnet-4-6', messages: user, stream: true }).then(async (stream) => {
      for await (const _chunk of stream);
    });
    await eventually(() => expect(requestSpans().length).toBe(2));
    const metrics = await telemetry.metrics();
    const dumped = JSON.stringify([
      telemetry.spans().map((span) => [span.name, span.attributes, span.events]),
      [...metrics.values()].map((metric) => metric.dataPoints.map((point) => point.attributes)),
    ]);
    expect(dumped).toContain('gen_ai.usage.output_tokens');
    for (const secret of [KEY, UPSTREAM_KEY, PROMPT, 'quietly']) expect(dumped).not.toContain(secret);
  });
});
