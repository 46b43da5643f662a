/**
 * Errors as the official clients see them, on every mount: the spec's rule
 * errors as each SDK's error classes, 401 (missing and wrong keys, both
 * header forms), 403 for a key limited to one model, request ids, and the
 * app's own routes next to the gateway.
 */
import Anthropic, { APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicBearerClient, anthropicClient, AUTH, failure, KEY, LIMITED_KEY, LIMITED_MODEL, openAIClient } from '../helpers/e2e-fixtures.js';
import { MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';
import { adaptiveOnEnabled, budgetNotBelowMaxTokens, enabledOnAdaptive, temperatureDeprecated, WHITESPACE_STOP } from '../helpers/expected-rule-errors.js';

/** The body of an Anthropic SDK error (`err.error` is the whole body). */
function vendorError(error: unknown): { type?: string; message?: string } {
  return ((error as { error?: { error?: { type?: string; message?: string } } }).error?.error) ?? {};
}

const user = [{ role: 'user' as const, content: 'Hello.' }];

describe.each(MOUNTS)('errors on %s', (mount) => {
  let app: StartedApp;
  let anthropic: Anthropic;
  let openai: OpenAI;

  beforeAll(async () => {
    app = await startApp(mount, { auth: AUTH });
    anthropic = anthropicClient(app.url);
    openai = openAIClient(app.url);
  });
  afterAll(() => app.close());

  describe("the spec's rule errors on the messages interface", () => {
    it.each([
      ['temperature on a model that rejects it', { model: 'vendora-opus-4-7', max_tokens: 64, temperature: 0.5, messages: user }, temperatureDeprecated('vendora-opus-4-7')],
      ['temperature on a deprecated model', { model: 'vendora-sonnet-5', max_tokens: 64, temperature: 1, messages: user }, temperatureDeprecated('vendora-sonnet-5')],
      ['a whitespace-only stop sequence', { model: 'vendora-haiku-4-5', max_tokens: 64, stop_sequences: ['\n\n'], messages: user }, WHITESPACE_STOP],
      ['thinking.enabled on an adaptive model', { model: 'vendora-opus-4-8', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: user }, enabledOnAdaptive('vendora-opus-4-8')],
      ['thinking.adaptive on an enabled model', { model: 'vendora-sonnet-4-6', max_tokens: 4096, thinking: { type: 'adaptive' }, messages: user }, adaptiveOnEnabled('vendora-sonnet-4-6')],
      ['max_tokens not above the thinking budget', { model: 'vendora-sonnet-4-6', max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: user }, budgetNotBelowMaxTokens(1024, 1024)],
    ])('%s → BadRequestError', async (_name, body, message) => {
      const error = await failure(() => anthropic.messages.create(body as Anthropic.MessageCreateParamsNonStreaming));
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as AnthropicAPIError).status).toBe(400);
      expect(vendorError(error).type).toBe('invalid_request_error');
      expect(vendorError(error).message).toBe(message);
    });

    it('rejects a streamed request with a real 400, not an SSE error', async () => {
      const error = await failure(() =>
        anthropic.messages.stream({ model: 'vendora-opus-4-7', max_tokens: 64, temperature: 0.2, messages: user }).finalMessage(),
      );
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(vendorError(error).message).toBe(temperatureDeprecated('vendora-opus-4-7'));
    });

    it('an unknown model → NotFoundError', async () => {
      const error = await failure(() => anthropic.messages.create({ model: 'vendora-nonexistent-1', max_tokens: 64, messages: user }));
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      expect(vendorError(error).type).toBe('not_found_error');
    });
  });

  describe('rule errors on chat completions', () => {
    it.each([
      ['temperature', { model: 'vendora-opus-4-7', temperature: 0.5, messages: user }, `400 ${temperatureDeprecated('vendora-opus-4-7')}`],
      ['stop.1', { model: 'vendora-sonnet-4-6', stop: ['END', '\n'], messages: user }, '400 stop: each stop sequence must contain non-whitespace'],
      ['stop', { model: 'vendora-haiku-4-5', stop: '\n\n', messages: user }, '400 stop: each stop sequence must contain non-whitespace'],
      ['reasoning_effort', { model: 'vendora-opus-4-7', reasoning_effort: 'low', messages: user }, '400 `reasoning_effort` is not supported for model "vendora-opus-4-7": it has no extended thinking. Remove it, or enable dropUnsupportedParams to have it dropped.'],
    ] as const)('%s → 400 with type and param', async (param, body, message) => {
      const error = await failure(() => openai.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.status).toBe(400);
      expect(apiError.type).toBe('invalid_request_error');
      expect(apiError.param).toBe(param);
      expect(apiError.message).toBe(message);
    });

    it('a malformed body → 400 naming the field', async () => {
      const error = await failure(() => openai.chat.completions.create({ model: 'gpt-4o', messages: 'hi' } as never));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe('messages');
    });
  });

  describe('authentication', () => {
    it('openai: a wrong key → AuthenticationError 401', async () => {
      const error = await failure(() => openAIClient(app.url, 'sk-wrong').chat.completions.create({ model: 'gpt-4o', messages: user }));
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('invalid_api_key');
    });

    it('openai: x-api-key alone does not authenticate chat completions (Bearer only)', async () => {
      const response = await fetch(`${app.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: JSON.stringify({ model: 'gpt-4o', messages: user }),
      });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { type: string; code: string; message: string } };
      expect(body.error.code).toBe('invalid_api_key');
      expect(body.error.message).toMatch(/x-api-key header, which chat completions do not read.*Authorization: Bearer <key>/);
    });

    it.each([
      ['x-api-key', () => anthropicClient(app.url, 'sk-wrong')],
      ['Bearer', () => anthropicBearerClient(app.url, 'sk-wrong')],
    ])('anthropic: a wrong key in %s → AuthenticationError 401', async (_form, client) => {
      const error = await failure(() => client().messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }));
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(vendorError(error).type).toBe('authentication_error');
    });

    it('anthropic: an empty key (the SDK sends an empty x-api-key) → AuthenticationError naming both headers', async () => {
      const error = await failure(() => anthropicClient(app.url, '').messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }));
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(vendorError(error).message).toMatch(/Missing API key.*x-api-key.*Authorization: Bearer/);
    });

    it.each(['/v1/messages', '/v1/chat/completions', '/v1/models', '/v1/files'])('no key at all on %s → 401', async (path) => {
      const response = await fetch(`${app.url}${path}`, {
        method: path.startsWith('/v1/m') && path !== '/v1/models' ? 'POST' : path === '/v1/chat/completions' ? 'POST' : 'GET',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: path === '/v1/models' || path === '/v1/files' ? null : JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 8, messages: user }),
      });
      expect(response.status).toBe(401);
      expect(await response.text()).toMatch(/Missing API key/);
    });
  });

  describe('a key limited to one model', () => {
    it('anthropic: another model → PermissionDeniedError 403; its own model works', async () => {
      const client = anthropicClient(app.url, LIMITED_KEY);
      const error = await failure(() => client.messages.create({ model: 'vendora-opus-4-8', max_tokens: 64, messages: user }));
      expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
      expect(vendorError(error).type).toBe('permission_error');
      const message = await client.messages.create({ model: LIMITED_MODEL, max_tokens: 64, messages: user });
      expect(message.model).toBe(LIMITED_MODEL);
    });

    it('openai: another model → PermissionDeniedError 403; the listing shows only its model', async () => {
      const client = openAIClient(app.url, LIMITED_KEY);
      const error = await failure(() => client.chat.completions.create({ model: 'gpt-4o', messages: user }));
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe('model');
      const models = [];
      for await (const model of client.models.list()) models.push(model.id);
      expect(models).toEqual([LIMITED_MODEL]);
    });
  });

  describe('request ids and routes', () => {
    it('echoes an incoming x-request-id as request-id (both clients read it)', async () => {
      const chat = await openai.chat.completions
        .create({ model: 'gpt-4o', messages: user }, { headers: { 'x-request-id': 'trace-chat-42' } })
        .withResponse();
      expect(chat.request_id).toBe('trace-chat-42');
      expect(chat.response.headers.get('request-id')).toBe('trace-chat-42');
      const message = await anthropic.messages.create(
        { model: 'vendora-sonnet-4-6', max_tokens: 32, messages: user },
        { headers: { 'x-request-id': 'trace-msg-42' } },
      );
      expect(message._request_id).toBe('trace-msg-42');
    });

    it('puts a request id on errors too', async () => {
      const error = await failure(() => anthropic.messages.create({ model: 'vendora-opus-4-7', max_tokens: 8, temperature: 0.1, messages: user } as Anthropic.MessageCreateParamsNonStreaming));
      expect((error as AnthropicAPIError).requestID).toMatch(/^req_[0-9a-f]{32}$/);
    });

    it('leaves the app routes alone and answers unknown /v1 paths with 404', async () => {
      const health = await fetch(`${app.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const unknown = await fetch(`${app.url}/v1/audio/speech`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('unknown_url');
    });
  });
});
