/**
 * Prometheus metrics on the app's prom-client registry, read back as the
 * text a scraper gets and parsed: requests, latency, stream timings, tokens,
 * retries and fallbacks, gateway 429s, open streams; bounded labels, an
 * opt-in principal label, and never a key or prompt text.
 */
import { GatewayError, openAICompatible } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import type Anthropic from '@anthropic-ai/sdk';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { parsePrometheusText, samplesOf, sumOf } from '../helpers/prometheus-text.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';
import { eventually } from '../helpers/telemetry.js';

const PROMPT = 'Name three harbour birds, briefly.';
const user = [{ role: 'user' as const, content: PROMPT }];
const LIMITED_KEY = 'sk-over-the-limit-1234567890';
const RESTRICTED_KEY = 'sk-haiku-only-0987654321';
const UPSTREAM_KEY = 'sk-upstream-prom-abcdef123456';
const COMPLETION = {
  id: 'chatcmpl-prom', object: 'chat.completion', created: 1, model: 'retry-me',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Gull.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
};

let app: StartedApp;
let stub: StubUpstream;
const registry = new Registry();
let retryCalls = 0;
const scrape = async () => parsePrometheusText(await registry.metrics());

beforeAll(async () => {
  stub = await startStubUpstream((request) => {
    const model = (JSON.parse(request.body) as { model: string }).model;
    if (model === 'flaky') return { kind: 'json', status: 500, body: { error: { message: 'down', type: 'server_error' } } };
    if (model === 'hang-model') {
      return { kind: 'sse', events: [{ data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] }) }], then: 'hang' };
    }
    retryCalls++;
    return retryCalls % 2 === 1
      ? { kind: 'json', status: 429, headers: { 'retry-after-ms': '1' }, body: { error: { message: 'slow down', type: 'rate_limit' } } }
      : { kind: 'json', body: COMPLETION };
  });
  const upstream = openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: UPSTREAM_KEY, name: 'stub' });
  const simulator = createSimulator();
  app = await startApp('koa3', {
    auth: {
      verify: async (key) => {
        if (key === LIMITED_KEY) throw new GatewayError('RATE_LIMITED', 'Too many requests for this key; retry later.');
        if (key === RESTRICTED_KEY) return { id: 'team-b', allowedModels: ['vendora-haiku-4-5'] };
        return key === KEY ? { id: 'team-a' } : null;
      },
    },
    routes: [
      { match: 'flaky', upstream, retries: 0, fallbacks: [simulator.upstreams.chat] },
      { match: 'retry-me', upstream, retries: 1 },
      { match: 'hang-model', upstream },
      { match: (model) => model.startsWith('vendora-'), upstream: simulator.upstreams.messages },
      { match: '*', upstream: simulator.upstreams.chat },
    ],
    prometheus: { registry, principalLabel: true },
  });
});
afterAll(async () => {
  await app.close();
  await stub.close();
});

describe('Prometheus metrics', () => {
  it('counts requests by endpoint, model, upstream, status and principal, with latency', async () => {
    const message = await anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user });
    let samples = await scrape();
    await eventually(() => expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'messages' })).toBe(1));
    const [request] = samplesOf(samples, 'modelgate_requests_total', { endpoint: 'messages' });
    expect(request!.labels).toMatchObject({ model: 'vendora-sonnet-4-6', status: '200', principal: 'team-a' });
    const upstream = request!.labels.upstream!;
    expect(upstream).not.toBe('none');
    expect(sumOf(samples, 'modelgate_request_duration_seconds_count', { endpoint: 'messages', model: 'vendora-sonnet-4-6' })).toBe(1);
    expect(sumOf(samples, 'modelgate_tokens_total', { model: 'vendora-sonnet-4-6', type: 'output', principal: 'team-a' })).toBe(message.usage.output_tokens);
    expect(sumOf(samples, 'modelgate_tokens_total', { model: 'vendora-sonnet-4-6', type: 'input' })).toBe(
      message.usage.input_tokens + (message.usage.cache_read_input_tokens ?? 0) + (message.usage.cache_creation_input_tokens ?? 0),
    );
    // A model no route names exactly is counted under the pattern of the route that serves it, not as its own series.
    await openAIClient(app.url).chat.completions.create({ model: 'some-unlisted-model-7', messages: user });
    samples = await scrape();
    expect(samplesOf(samples, 'modelgate_requests_total', { model: 'some-unlisted-model-7' })).toEqual([]);
    expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'chat.completions', model: '*' })).toBe(1);
  });

  it('requests refused by the rules keep the model label when the gateway serves that model, and the serving route\'s pattern otherwise', async () => {
    // The temperature rule answers before the body is kept: the catalog model is still named.
    await expect(
      anthropicClient(app.url).messages.create({ model: 'vendora-opus-4-7', max_tokens: 8, temperature: 0.3, messages: user } as Anthropic.MessageCreateParamsNonStreaming),
    ).rejects.toMatchObject({ status: 400 });
    // A key not allowed the model: a catalog model, an exact-string route, and a name a caller made up.
    const restricted = anthropicClient(app.url, RESTRICTED_KEY);
    await expect(restricted.messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 8, messages: user })).rejects.toMatchObject({ status: 403 });
    await expect(openAIClient(app.url, RESTRICTED_KEY).chat.completions.create({ model: 'retry-me', messages: user })).rejects.toMatchObject({ status: 403 });
    await expect(openAIClient(app.url, RESTRICTED_KEY).chat.completions.create({ model: 'made-up-model-x9', messages: user })).rejects.toMatchObject({ status: 403 });
    const samples = await scrape();
    expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'messages', model: 'vendora-opus-4-7', status: '400', upstream: 'none' })).toBe(1);
    expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'messages', model: 'vendora-sonnet-4-6', status: '403', principal: 'team-b' })).toBe(1);
    expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'chat.completions', model: 'retry-me', status: '403' })).toBe(1);
    expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'chat.completions', model: '*', status: '403' })).toBe(1);
    expect(samplesOf(samples, 'modelgate_requests_total', { model: 'made-up-model-x9' })).toEqual([]);
    expect(samplesOf(samples, 'modelgate_requests_total', { model: 'none', status: '403' })).toEqual([]);
  });

  it('streams: time to first token and inter-token histograms', async () => {
    const stream = await openAIClient(app.url).chat.completions.create({ model: 'vendora-haiku-4-5', messages: user, stream: true });
    let chunks = 0;
    for await (const _chunk of stream) chunks++;
    expect(chunks).toBeGreaterThan(2);
    await eventually(async () => expect(sumOf(await scrape(), 'modelgate_requests_total', { model: 'vendora-haiku-4-5' })).toBe(1));
    const samples = await scrape();
    expect(sumOf(samples, 'modelgate_time_to_first_token_seconds_count', { model: 'vendora-haiku-4-5' })).toBe(1);
    expect(sumOf(samples, 'modelgate_inter_token_seconds_count', { model: 'vendora-haiku-4-5' })).toBeGreaterThan(1);
  });

  it('retries and fallbacks', async () => {
    await openAIClient(app.url).chat.completions.create({ model: 'retry-me', messages: user });
    await openAIClient(app.url).chat.completions.create({ model: 'flaky', messages: user });
    const samples = await scrape();
    expect(sumOf(samples, 'modelgate_upstream_retries_total', { upstream: 'stub' })).toBe(1);
    expect(sumOf(samples, 'modelgate_upstream_fallbacks_total', { upstream: 'stub' })).toBe(1);
    expect(sumOf(samples, 'modelgate_requests_total', { model: 'retry-me', upstream: 'stub', status: '200' })).toBe(1);
    expect(sumOf(samples, 'modelgate_requests_total', { model: 'flaky', status: '200' })).toBe(1);
    expect(samplesOf(samples, 'modelgate_requests_total', { model: 'flaky' })[0]?.labels.upstream).not.toBe('stub');
  });

  it("counts the gateway's own 429s as limit rejections, not an upstream's 429", async () => {
    const before = sumOf(await scrape(), 'modelgate_limit_rejections_total');
    await expect(openAIClient(app.url, LIMITED_KEY).chat.completions.create({ model: 'gpt-4o', messages: user })).rejects.toMatchObject({ status: 429 });
    const samples = await scrape();
    expect(sumOf(samples, 'modelgate_limit_rejections_total', { endpoint: 'chat.completions' }) - before).toBe(1);
    // The retried 429 of the stub above is an upstream's: it is no limit rejection.
    expect(sumOf(samples, 'modelgate_limit_rejections_total') - before).toBe(1);
  });

  it('open streams go up while a stream is relayed and back down when the client leaves', async () => {
    const abort = new AbortController();
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'hang-model', messages: user, stream: true }),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    expect(sumOf(await scrape(), 'modelgate_open_streams', { endpoint: 'chat.completions' })).toBe(1);
    abort.abort();
    await reader.cancel().catch(() => undefined);
    await eventually(async () => expect(sumOf(await scrape(), 'modelgate_open_streams', { endpoint: 'chat.completions' })).toBe(0));
  });

  it('no key and no prompt text in any label; the principal label is the id', async () => {
    const text = await registry.metrics();
    expect(text).toContain('principal="team-a"');
    for (const secret of [KEY, LIMITED_KEY, RESTRICTED_KEY, UPSTREAM_KEY, PROMPT, 'harbour']) expect(text).not.toContain(secret);
  });
});
