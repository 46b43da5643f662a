/**
 * Cooldowns through real HTTP on both sides: upstream stubs that fail on
 * command, the official clients in front. A target that went down costs
 * later requests no attempt, a single probe brings it back, and when every
 * target cools the caller is answered at once, in its format, with
 * `retry-after`.
 */
import { APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import { APIError as OpenAIAPIError } from 'openai';
import { messagesUpstream, openAICompatible } from 'modelgate';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CommandStub, startCommandStub } from '../helpers/command-stub.js';
import { AUTH, anthropicClient, failure, openAIClient } from '../helpers/e2e-fixtures.js';
import { parsePrometheusText, sumOf } from '../helpers/prometheus-text.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

// Long enough that a few requests fit inside it on a loaded 2-core machine.
const COOLDOWN_MS = 2_000;
let primary: CommandStub;
let backup: CommandStub;
let vendor: CommandStub;
let app: StartedApp;
const registry = new Registry();
const scrape = async () => parsePrometheusText(await registry.metrics());

beforeAll(async () => {
  [primary, backup, vendor] = await Promise.all([startCommandStub(), startCommandStub(), startCommandStub()]);
  const chat = (name: string, stub: CommandStub) => openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-up', name });
  app = await startApp('node', {
    auth: AUTH,
    prometheus: { registry },
    routing: { cooldown: { failures: 2, baseMs: COOLDOWN_MS } },
    // These routes answer locally when every target cools (the default tries them anyway: see cooldowns-panic.test.ts).
    routes: [
      { match: 'team-model', upstream: chat('primary', primary), model: 'up-model', fallbacks: [{ upstream: chat('backup', backup), model: 'up-model' }], retries: 0, whenAllCooling: 'reject' },
      // Each vendor-* model id is a target of its own (same upstream, another model id).
      { match: 'vendor-*', upstream: messagesUpstream({ baseURL: vendor.url, apiKey: 'sk-up', name: 'vendor' }), serveMessages: true, retries: 0, whenAllCooling: 'reject' },
    ],
  });
});
afterAll(async () => {
  await app.close();
  await Promise.all([primary, backup, vendor].map((stub) => stub.close()));
});
beforeEach(() => {
  for (const stub of [primary, backup, vendor]) {
    stub.fault = 'good';
    stub.delayMs = 0;
  }
});

const ask = (model = 'team-model') => openAIClient(app.url).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whole seconds until the cooldown ends: at least 1, at most the cooldown. */
function expectRetryAfter(value: string | null | undefined): void {
  expect(value).toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
  expect(Number(value)).toBeLessThanOrEqual(Math.ceil(COOLDOWN_MS / 1000));
}

describe('cooldowns', () => {
  it('a target that went down is skipped without an attempt; one probe restores it', async () => {
    primary.fault = '5xx';
    // Two failures in a row (served by the backup each time) cool the primary.
    for (let i = 0; i < 2; i++) expect((await ask()).choices[0]?.message.content).toBe('all good');
    expect(primary.requests).toHaveLength(2);
    const cooled = await scrape();
    expect(sumOf(cooled, 'modelgate_upstream_state', { upstream: 'primary', model: 'up-model' })).toBe(2);
    expect(sumOf(cooled, 'modelgate_upstream_cooldowns_total', { upstream: 'primary', model: 'up-model', cause: 'failures' })).toBe(1);

    // While it cools, requests go straight to the backup: the primary sees none of them.
    const backupBefore = backup.requests.length;
    for (let i = 0; i < 4; i++) await ask();
    expect(primary.requests).toHaveLength(2);
    expect(backup.requests.length - backupBefore).toBe(4);

    primary.fault = 'good';
    // The probe's answer takes a while, so the other requests arrive while it is out.
    primary.delayMs = 300;
    await sleep(COOLDOWN_MS + 50);
    expect(sumOf(await scrape(), 'modelgate_upstream_state', { upstream: 'primary', model: 'up-model' })).toBe(1);
    // Half-open: of five concurrent requests exactly one probes the primary.
    await Promise.all(Array.from({ length: 5 }, () => ask()));
    expect(primary.requests).toHaveLength(3);
    primary.delayMs = 0;
    // The probe succeeded: full traffic again.
    for (let i = 0; i < 3; i++) await ask();
    expect(primary.requests).toHaveLength(6);
    expect(sumOf(await scrape(), 'modelgate_upstream_state', { upstream: 'primary', model: 'up-model' })).toBe(0);
  });

  it("whenAllCooling 'reject', every target cooling: chat callers get 503 upstream_cooling with retry-after, at once", async () => {
    primary.fault = '5xx';
    backup.fault = '5xx';
    for (let i = 0; i < 2; i++) await failure(() => ask());
    const sent = primary.requests.length + backup.requests.length;
    const started = performance.now();
    const error = await failure(() => ask());
    // No attempt and no wait (the stub counts below are the proof; this only rules out a backoff).
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(primary.requests.length + backup.requests.length).toBe(sent);
    expect(error).toBeInstanceOf(OpenAIAPIError);
    const apiError = error as InstanceType<typeof OpenAIAPIError>;
    expect(apiError.status).toBe(503);
    expect(apiError.code).toBe('upstream_cooling');
    expect(apiError.type).toBe('server_error');
    expect(apiError.message).toMatch(/cooling down/);
    expectRetryAfter(apiError.headers?.get('retry-after'));
  });

  it("whenAllCooling 'reject', every target cooling: messages callers get 529 overloaded_error with retry-after", async () => {
    vendor.fault = '529';
    const client = anthropicClient(app.url);
    const call = () => client.messages.create({ model: 'vendor-overloaded', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    for (let i = 0; i < 2; i++) expect(await failure(call)).toMatchObject({ status: 529 });
    expect(vendor.requests).toHaveLength(2);
    const error = await failure(call);
    expect(vendor.requests).toHaveLength(2);
    expect(error).toBeInstanceOf(AnthropicAPIError);
    const apiError = error as InstanceType<typeof AnthropicAPIError>;
    expect(apiError.status).toBe(529);
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expectRetryAfter(apiError.headers?.get('retry-after'));
  });

  it("an upstream's 429 with retry-after cools its target for that long: messages callers get 429 rate_limit_error", async () => {
    vendor.fault = '429-retry-after';
    const client = anthropicClient(app.url);
    const call = () => client.messages.create({ model: 'vendor-limited', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(await failure(call)).toMatchObject({ status: 429 });
    const error = await failure(call);
    expect(vendor.requests.length).toBeGreaterThan(0);
    const count = vendor.requests.length;
    expect(error).toBeInstanceOf(AnthropicAPIError);
    const apiError = error as InstanceType<typeof AnthropicAPIError>;
    expect(apiError.status).toBe(429);
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(apiError.headers?.get('retry-after')).toBe('1');
    expect(vendor.requests).toHaveLength(count);
    expect(sumOf(await scrape(), 'modelgate_upstream_cooldowns_total', { upstream: 'vendor', cause: 'rate_limit' })).toBe(1);
    // The official client honours retry-after and retries: by then the target is back.
    vendor.fault = 'good';
    const retrying = anthropicClient(app.url);
    const answer = await retrying.withOptions({ maxRetries: 2 }).messages.create({ model: 'vendor-limited', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.content[0]).toMatchObject({ type: 'text', text: 'all good' });
  });
});

describe('faults the caller asks the embedded simulator for', () => {
  it('do not cool the simulator: a request without the header is answered right after', async () => {
    const simulated = await startApp('node', { auth: AUTH, routing: { cooldown: { failures: 2, baseMs: 60_000 } } });
    try {
      const openai = openAIClient(simulated.url);
      const ask = (headers: Record<string, string>) =>
        openai.chat.completions.create({ model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] }, { headers, maxRetries: 0 });
      for (let i = 0; i < 4; i++) {
        const error = await failure(() => ask({ 'x-simulator-fault': 'status=529' }));
        expect(error).toBeInstanceOf(OpenAIAPIError);
        expect((error as OpenAIAPIError).status).toBe(529);
      }
      const answer = await ask({});
      expect(answer.choices[0]?.message.content).toBeTruthy();
    } finally {
      await simulated.close();
    }
  });
});

describe('streams an upstream breaks off', () => {
  it('count against the target: after two streams cut mid-way, the next stream goes to the fallback', async () => {
    const chat = (name: string, stub: CommandStub) => openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-up', name });
    const streaming = await startApp('node', {
      auth: AUTH,
      routing: { cooldown: { failures: 2, baseMs: 60_000 } },
      routes: [{ match: 'stream-model', upstream: chat('primary', primary), fallbacks: [chat('backup', backup)], retries: 0 }],
    });
    try {
      const openai = openAIClient(streaming.url);
      const readStream = async (): Promise<string> => {
        let text = '';
        const stream = await openai.chat.completions.create({ model: 'stream-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        return text;
      };
      primary.fault = 'cut-mid-stream';
      const primaryBefore = primary.requests.length;
      const backupBefore = backup.requests.length;
      for (let i = 0; i < 2; i++) {
        const error = await failure(readStream);
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).toMatch(/closed the connection in the middle/);
      }
      expect(primary.requests.length - primaryBefore).toBe(2);
      expect(await readStream()).toBe('all good');
      expect(primary.requests.length - primaryBefore).toBe(2);
      expect(backup.requests.length - backupBefore).toBe(1);
    } finally {
      await streaming.close();
    }
  });
});
