/**
 * A body written for another interface, sent by the official clients over
 * real HTTP: a messages body on /v1/chat/completions, a Responses body on
 * chat, a chat body on /v1/messages. Each is a 400 naming the field and the
 * fix, for a catalog model (messages upstream) and a chat-routed model
 * (OpenAI-compatible upstream) alike, with or without
 * `dropUnsupportedParams`; the upstream on 127.0.0.1 receives nothing.
 */
import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_CATALOG, messagesUpstream, openAICompatible } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, failure, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';

/** Served by the vendor's messages upstream. */
const CATALOG_MODEL = 'vendora-sonnet-4-6';
/** Served by a local OpenAI-compatible server. */
const LOCAL_MODEL = 'qwen2.5-coder-7b';

const CHAT_ANSWER = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: LOCAL_MODEL,
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
};

/** The status, `param` and message of an SDK error from the chat client. */
function chatError(error: unknown): { status: number | undefined; param: string | null | undefined; message: string } {
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  const apiError = error as InstanceType<typeof OpenAI.APIError>;
  return { status: apiError.status, param: apiError.param, message: apiError.message };
}

/** The message in the body of an error from the messages client. */
function vendorMessage(error: unknown): string | undefined {
  return (error as { error?: { error?: { message?: string } } }).error?.error?.message;
}

describe.each([
  ['node', false],
  ['express5', false],
  ['express5', true],
  ['express5+json', false],
] as const)('a body for another interface on %s (dropUnsupportedParams: %s)', (mount, dropUnsupportedParams) => {
  let stub: StubUpstream;
  let app: StartedApp;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    stub = await startStubUpstream(() => ({ kind: 'json', body: CHAT_ANSWER }));
    app = await startApp(mount, {
      auth: AUTH,
      dropUnsupportedParams,
      routes: [
        { match: (model) => DEFAULT_CATALOG.has(model), upstream: messagesUpstream({ baseURL: stub.url, apiKey: 'sk-vendor' }) },
        { match: '*', upstream: openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-local' }) },
      ],
    });
    openai = openAIClient(app.url);
    anthropic = anthropicClient(app.url);
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });
  beforeEach(() => {
    stub.requests.length = 0;
  });

  describe.each([CATALOG_MODEL, LOCAL_MODEL])('model %s', (model) => {
    it('chat.completions.create with a top-level system: 400 naming `system`, both fixes, nothing sent upstream', async () => {
      const body = { model, max_tokens: 256, system: 'Answer in French.', messages: [{ role: 'user', content: 'Hello.' }] };
      const error = chatError(await failure(() => openai.chat.completions.create(body as never)));
      expect(error.status).toBe(400);
      expect(error.param).toBe('system');
      expect(error.message).toContain('POST it to /v1/messages, or move `system` into a system message');
      expect(error.message).not.toContain('dropUnsupportedParams');
      expect(stub.requests).toHaveLength(0);
    });

    it('chat.completions.create with a tool_result block (no system): 400 naming the block', async () => {
      const body = {
        model,
        max_tokens: 256,
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '4 C' }] },
        ],
      };
      const error = chatError(await failure(() => openai.chat.completions.create(body as never)));
      expect(error.status).toBe(400);
      expect(error.param).toBe('messages.0.content.0.type');
      expect(error.message).toContain('"tool_use" is a content block of the messages interface');
      expect(error.message).toContain('POST it to /v1/messages');
      expect(stub.requests).toHaveLength(0);
    });

    it('chat.completions.create with a Responses body (input, no messages): 400 naming /v1/responses', async () => {
      const error = chatError(await failure(() => openai.chat.completions.create({ model, input: 'Hello.' } as never)));
      expect(error.param).toBe('input');
      expect(error.message).toContain('/v1/responses');
      expect(stub.requests).toHaveLength(0);
    });

    it('messages.create with an image_url part: 400 naming the part and /v1/chat/completions', async () => {
      const body = {
        model,
        max_tokens: 256,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }],
      };
      const error = await failure(() => anthropic.messages.create(body as never));
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as { error?: { error?: { type?: string } } }).error?.error?.type).toBe('invalid_request_error');
      expect(vendorMessage(error)).toContain('messages.0.content.1.type: "image_url" is a chat-completions content part');
      expect(vendorMessage(error)).toContain('POST it to /v1/chat/completions');
      expect(stub.requests).toHaveLength(0);
    });

    it('messages.create without max_tokens, with a system-role message: says the body looks like chat', async () => {
      const body = { model, messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'Hello.' }] };
      const error = await failure(() => anthropic.messages.create(body as never));
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const message = vendorMessage(error);
      expect(message).toMatch(/^max_tokens: field required/);
      expect(message).toContain('"system"-role message');
      expect(message).toContain('POST it to /v1/chat/completions');
      expect(stub.requests).toHaveLength(0);
    });
  });

  it('the same conversation as a chat body reaches the local upstream, its system message intact', async () => {
    const completion = await openai.chat.completions.create({
      model: LOCAL_MODEL,
      max_tokens: 256,
      messages: [{ role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'Hello.' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hi.');
    expect(stub.requests).toHaveLength(1);
    const sent = JSON.parse(stub.requests[0]!.body) as { messages: Array<{ role: string; content: string }> };
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Answer in French.' });
  });
});
