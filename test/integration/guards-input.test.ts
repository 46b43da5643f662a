/**
 * Input guards through the official clients over real HTTP (node:http and
 * Express): the PII redactor rewrites what the upstream is sent and the
 * deny-list refuses in the caller's format, on chat, messages and
 * Responses, over a chat upstream and a messages upstream; a guard past
 * its time-out and a guard that throws, under both error policies.
 */
import Anthropic from '@anthropic-ai/sdk';
import { denyList, type Guard, messagesUpstream, openAICompatible, piiRedactor } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuardUpstreams } from '../helpers/guard-upstreams.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-guard-test-0000000000';
const SECRET_ERROR = 'moderation backend at https://internal.example:8443 refused key sk-mod-123';

const slow = (onError: 'open' | 'closed'): Guard => ({
  name: `slow-${onError}`,
  timeoutMs: 50,
  onError,
  input: () => new Promise((resolve) => setTimeout(() => resolve({ action: 'block', reason: 'too late to count' }), 2_000)),
});
const throwing = (onError: 'open' | 'closed'): Guard => ({
  name: `throwing-${onError}`,
  onError,
  input: () => {
    throw new Error(SECRET_ERROR);
  },
});

const script = { deltas: ['All good.'] };
type Upstreams = Awaited<ReturnType<typeof startGuardUpstreams>>;
let upstreams: Upstreams;
beforeAll(async () => {
  upstreams = await startGuardUpstreams(script);
});
afterAll(() => upstreams.close());

const PROMPT = 'Write to jane.doe@example.com or call +1 415 555 0100 about the launch.';
const REDACTED = 'Write to [EMAIL] or call [PHONE] about the launch.';

describe.each(['node', 'express5'] as const)('input guards on %s', (mount) => {
  let app: StartedApp;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    const chatUp = openAICompatible({ baseURL: `${upstreams.chat.url}/v1`, apiKey: 'sk-up', name: 'chat-up' });
    const messagesUp = messagesUpstream({ baseURL: upstreams.messages.url, apiKey: 'sk-up', name: 'messages-up' });
    app = await startApp(mount, {
      auth: { keys: [KEY] },
      guards: [piiRedactor(), denyList({ terms: ['project nightingale'] })],
      routes: [
        { match: 'via-chat', upstream: chatUp, serveMessages: true },
        { match: 'via-messages', upstream: messagesUp, serveMessages: true },
        { match: 'slow-closed', upstream: chatUp, guards: [slow('closed')] },
        { match: 'slow-open', upstream: chatUp, guards: [slow('open')] },
        { match: 'throwing-closed', upstream: chatUp, serveMessages: true, guards: [throwing('closed')] },
        { match: 'throwing-open', upstream: chatUp, guards: [throwing('open')] },
      ],
      defaultMaxTokens: 256,
    });
    openai = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(() => app.close());

  /** The text the upstream was last sent, and how many requests it got. */
  const lastSent = (format: 'chat' | 'messages'): string => {
    const requests = (format === 'chat' ? upstreams.chat : upstreams.messages).requests;
    return requests.at(-1)?.body ?? '';
  };
  const count = () => upstreams.chat.requests.length + upstreams.messages.requests.length;

  const interfaces = {
    chat: (model: string, text: string) => openai.chat.completions.create({ model, messages: [{ role: 'user', content: text }] }),
    messages: (model: string, text: string) => anthropic.messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: text }] }),
    responses: (model: string, text: string) => openai.responses.create({ model, input: text, store: false }),
  };

  describe.each(['chat', 'messages', 'responses'] as const)('through the %s interface', (api) => {
    it.each([['via-chat', 'chat'], ['via-messages', 'messages']] as const)('sends %s upstream the redacted request', async (model, format) => {
      await interfaces[api](model, PROMPT);
      const sent = lastSent(format);
      expect(sent).toContain(REDACTED);
      expect(sent).not.toContain('jane.doe@example.com');
      expect(sent).not.toContain('555');
    });

    it('refuses a denied term with a content-filter error naming the guard, without calling upstream', async () => {
      const before = count();
      const error = await interfaces[api]('via-chat', 'Tell me about Project Nightingale.').catch((caught: unknown) => caught);
      expect(count()).toBe(before);
      if (api === 'messages') {
        expect(error).toBeInstanceOf(Anthropic.BadRequestError);
        const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as { error: { type: string; message: string } };
        expect(body.error.type).toBe('invalid_request_error');
        expect(body.error.message).toContain('deny-list');
      } else {
        expect(error).toBeInstanceOf(OpenAI.BadRequestError);
        const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
        expect(refused.code).toBe('content_filter');
        expect(refused.message).toContain('deny-list');
      }
    });
  });

  it('refuses with a 503 naming a slow guard under onError closed, and lets the request pass under open', async () => {
    const error = await openai.chat.completions.create({ model: 'slow-closed', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('slow-closed');
    const passed = await openai.chat.completions.create({ model: 'slow-open', messages: [{ role: 'user', content: 'hi' }] });
    expect(passed.choices[0]?.message.content).toBe('All good.');
  });

  it('refuses with a 503 that names a throwing guard but not its error under closed, and passes under open', async () => {
    const error = await anthropic.messages
      .create({ model: 'throwing-closed', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const refused = error as InstanceType<typeof Anthropic.APIError>;
    expect(refused.status).toBe(503);
    expect(JSON.stringify(refused.error)).toContain('throwing-closed');
    expect(JSON.stringify(refused.error)).not.toContain('internal.example');
    expect(JSON.stringify(refused.error)).not.toContain('sk-mod-123');
    const passed = await openai.responses.create({ model: 'throwing-open', input: 'hi', store: false });
    expect(passed.output_text).toBe('All good.');
  });
});
