/**
 * `POST /v1/responses` and the gateway's operations: request limits (429
 * in the OpenAI envelope), `onUsage` (one record per call, streamed and
 * not), OpenTelemetry (the server span's route name and attributes, the
 * upstream CLIENT span) and redaction (an upstream error quoting its key,
 * whole or in-band in a stream, never reaches the client or the hooks).
 */
import { SpanKind } from '@opentelemetry/api';
import { messagesUpstream, openAICompatible, type Route, type UsageRecord } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type EchoUpstream, startEchoUpstream } from '../helpers/echo-upstream.js';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';

type Json = Record<string, any>;

const CHAT_MODEL = 'gpt-4o-mini';
const VENDOR_MODEL = 'vendora-sonnet-4-6';
const MODELS = [CHAT_MODEL, VENDOR_MODEL] as const;

function post(url: string, body: Json, key = KEY): Promise<Response> {
  return fetch(`${url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function simulatedRoutes(): Route[] {
  const sim = createSimulator();
  return [
    { match: 'vendora-*', upstream: sim.upstreams.messages },
    { match: '*', upstream: sim.upstreams.chat },
  ];
}

describe.each(['node', 'express5'] as const)('operations of /v1/responses on %s', (mount) => {
  describe('limits', () => {
    let app: StartedApp;
    beforeAll(async () => {
      app = await startApp(mount, { auth: AUTH, routes: simulatedRoutes(), limits: { rules: [{ requests: { limit: 1, windowSeconds: 60 } }] } });
    });
    afterAll(() => app.close());

    it('the second call in the window → 429 in the OpenAI envelope', async () => {
      const first = await post(app.url, { model: CHAT_MODEL, input: 'Hi.' });
      expect(first.status).toBe(200);
      await first.text();
      const second = await post(app.url, { model: CHAT_MODEL, input: 'Hi.' });
      expect(second.status).toBe(429);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await second.json()) as Json;
      expect(body.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
      expect(body.error.type).toMatch(/rate_limit|requests/);
    });
  });

  describe('onUsage and OpenTelemetry', () => {
    let app: StartedApp;
    const usage: UsageRecord[] = [];
    const telemetry = createTelemetry();
    beforeAll(async () => {
      app = await startApp(mount, {
        auth: AUTH,
        routes: simulatedRoutes(),
        onUsage: (record) => usage.push(record),
        openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
      });
    });
    afterAll(() => app.close());
    beforeEach(() => {
      usage.length = 0;
      telemetry.reset();
    });

    describe.each(MODELS)('%s', (model) => {
      it.each([false, true])('stream %s: one usage record with the tokens the response reports', async (stream) => {
        const response = await post(app.url, { model, input: 'Describe a lighthouse.', stream });
        expect(response.status).toBe(200);
        const text = await response.text();
        const final = stream
          ? (JSON.parse(text.split('\n').filter((line) => line.startsWith('data: ')).at(-1)!.slice(6)) as Json).response
          : (JSON.parse(text) as Json);
        await vi.waitFor(() => expect(usage).toHaveLength(1));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(usage).toHaveLength(1);
        expect(usage[0]).toMatchObject({
          endpoint: 'responses.create',
          model,
          status: 200,
          stream,
          aborted: false,
          principalId: expect.any(String),
          inputTokens: final.usage.input_tokens,
          outputTokens: final.usage.output_tokens,
        });
        expect(usage[0]!.inputTokens).toBeGreaterThan(0);
      });

      it('a server span named after the route, with the GenAI attributes, and a CLIENT child', async () => {
        const response = await post(app.url, { model, input: 'Describe a lighthouse.', max_output_tokens: 200 });
        const body = (await response.json()) as Json;
        await eventually(() => expect(telemetry.spans().filter((span) => span.kind === SpanKind.SERVER)).toHaveLength(1));
        const server = telemetry.spans().find((span) => span.kind === SpanKind.SERVER)!;
        const client = telemetry.spans().find((span) => span.kind === SpanKind.CLIENT)!;
        expect(server.name).toBe('POST /v1/responses');
        expect(server.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.route': '/v1/responses', 'gen_ai.request.model': model });
        expect(client.name).toBe(`chat ${model}`);
        expect(client.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
        expect(client.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': model });
        expect(client.attributes['gen_ai.usage.input_tokens']).toBe(body.usage.input_tokens);
      });
    });

    it('GET /v1/responses/{id} has a span named after its route template', async () => {
      const response = await fetch(`${app.url}/v1/responses/resp_0123456789abcdef01234567`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(response.status).toBe(404);
      await eventually(() => expect(telemetry.spans()).toHaveLength(1));
      expect(telemetry.spans()[0]!.name).toBe('GET /v1/responses/{response_id}');
    });
  });

  describe('redaction', () => {
    const CALLER_KEY = 'sk-c4Ll3r-Pp9Oo8Ii7Uu6Yy5';
    const CHAT_KEY = 'sk-Qh7Zw2-4f9QkZ7mW2xR8tLp';
    const VENDOR_KEY = 'sk-ant-api03-Hd72Kq9ZxPl4Vb';
    const SECRETS = [CALLER_KEY, CHAT_KEY, VENDOR_KEY];
    /** Every 8-character piece of every secret, lower-cased; none may be seen. */
    const leaks = (text: string): string[] =>
      SECRETS.flatMap((secret) => Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8).toLowerCase())).filter((piece) => text.toLowerCase().includes(piece));

    let echo: EchoUpstream;
    let app: StartedApp;
    const usage: UsageRecord[] = [];
    const errors: string[] = [];
    beforeAll(async () => {
      echo = await startEchoUpstream();
      app = await startApp(mount, {
        auth: { keys: [CALLER_KEY] },
        routes: (['json', 'midstream'] as const).flatMap((mode): Route[] => [
          { match: `chat-${mode}`, upstream: openAICompatible({ baseURL: `${echo.url}/${mode}/v1`, apiKey: CHAT_KEY, name: 'echo-chat' }), retries: 0 },
          { match: `messages-${mode}`, upstream: messagesUpstream({ baseURL: `${echo.url}/${mode}`, apiKey: VENDOR_KEY, name: 'echo-vendor' }), retries: 0, serveMessages: true },
        ]),
        onUsage: (record) => usage.push(record),
        onError: ({ error }) => errors.push([error.message, error.stack, JSON.stringify(error), (error.cause as Error | undefined)?.message].join('\n')),
      });
    });
    afterAll(async () => {
      await app.close();
      await echo.close();
    });

    it.each([
      ['chat-json', false, 400],
      ['chat-json', true, 400],
      ['messages-json', false, 400],
      ['messages-json', true, 400],
      ['chat-midstream', true, 200],
      ['messages-midstream', true, 200],
    ] as const)('%s (stream %s): the quoted key never reaches the client', async (model, stream, status) => {
      const mode = model.endsWith('json') ? 'json' : 'midstream';
      const before = echo.hits[mode] ?? 0;
      const response = await post(app.url, { model, input: 'hi', stream }, CALLER_KEY);
      const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
      const body = await response.text();
      expect(echo.hits[mode]).toBe(before + 1);
      expect(response.status).toBe(status);
      expect(leaks(`${headers}\n${body}`)).toEqual([]);
      if (mode === 'json') {
        expect((JSON.parse(body) as Json).error.message).toContain('[redacted]');
      } else {
        expect(body).toMatch(/event: (error|response\.failed)/);
        expect(body).toContain('[redacted]');
      }
    });

    it('onUsage and onError records carry no secret', () => {
      expect(usage.length).toBeGreaterThan(0);
      expect(errors.length).toBeGreaterThan(0);
      expect(leaks(JSON.stringify(usage))).toEqual([]);
      expect(leaks(errors.join('\n'))).toEqual([]);
    });
  });
});
