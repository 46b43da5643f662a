/**
 * Edge cases on every mount: the body size limit (also behind a body
 * parser with a larger limit), non-ASCII text through every body path,
 * the 0.x-style `?beta=true` paths, upstream overload, and a stream cut by
 * the upstream, as the official clients see them.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { FAULT_HEADER } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, openAIClient } from '../helpers/e2e-fixtures.js';
import { MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';

const LIMIT = 64 * 1024;
/** Over the limit; words, so that a limit that failed would still answer quickly. */
const OVERSIZED = 'lorem ipsum dolor sit amet '.repeat(Math.ceil((LIMIT * 1.5) / 27));
const UNICODE = 'Grüße, naïve café — 日本語のテキスト and emoji 🌍🚀';

describe.each(MOUNTS)('edge cases on %s', (mount) => {
  let app: StartedApp;
  let anthropic: Anthropic;
  let openai: OpenAI;

  beforeAll(async () => {
    app = await startApp(mount, { auth: AUTH, maxBodyBytes: LIMIT });
    anthropic = anthropicClient(app.url);
    openai = openAIClient(app.url);
  });
  afterAll(() => app.close());

  it('a body over maxBodyBytes → 413 in each client\'s terms', async () => {
    const vendor = await anthropic.messages.create({ model: 'vendora-opus-4-6', max_tokens: 8, messages: [{ role: 'user', content: OVERSIZED }] }).catch((e: unknown) => e);
    expect(vendor).toBeInstanceOf(Anthropic.APIError);
    expect(vendor).toMatchObject({ status: 413, error: { error: { type: 'request_too_large' } } });
    const chat = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: OVERSIZED }] }).catch((e: unknown) => e);
    expect(chat).toBeInstanceOf(OpenAI.APIError);
    expect(chat).toMatchObject({ status: 413 });
  });

  it('non-ASCII text arrives intact on both interfaces', async () => {
    const message = await anthropic.messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 128, messages: [{ role: 'user', content: UNICODE }] });
    expect(message.content[0]?.type === 'text' && message.content[0].text).toContain(UNICODE);
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: UNICODE }] });
    expect(completion.choices[0]?.message.content).toContain(UNICODE);
  });

  it('beta.messages (?beta=true) create, stream and count_tokens; beta.models.list', async () => {
    const message = await anthropic.beta.messages.create({ model: 'vendora-opus-4-8', max_tokens: 64, messages: [{ role: 'user', content: 'Hi.' }] });
    expect(message.type).toBe('message');
    const final = await anthropic.beta.messages.stream({ model: 'vendora-opus-4-8', max_tokens: 64, messages: [{ role: 'user', content: 'Hi.' }] }).finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    const counted = await anthropic.beta.messages.countTokens({ model: 'vendora-opus-4-8', messages: [{ role: 'user', content: 'Hi.' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const page = await anthropic.beta.models.list({ limit: 3 });
    expect(page.data).toHaveLength(3);
  });

  it('an overloaded upstream (529) → OverloadedError', async () => {
    const error = await anthropic.messages
      .create({ model: 'vendora-opus-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'Hi.' }] }, { headers: { [FAULT_HEADER]: 'status=529' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ status: 529, error: { error: { type: 'overloaded_error' } } });
  });

  it.each(['vendora-opus-4-6', 'gpt-4o'])('a stream the upstream cuts ends in an error the chat client throws (%s)', async (model) => {
    const stream = await openai.chat.completions.create(
      { model, stream: true, messages: [{ role: 'user', content: 'Tell me a story.' }] },
      { headers: { [FAULT_HEADER]: 'cut-after=4' } },
    );
    const error = await (async () => {
      for await (const _chunk of stream) {
        // read until the error
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toMatch(/ended the stream before it was complete/);
  });

  it('a stream the upstream cuts ends in an error the messages client throws', async () => {
    const error = await anthropic.messages
      .stream({ model: 'vendora-opus-4-6', max_tokens: 256, messages: [{ role: 'user', content: 'Tell me a story.' }] }, { headers: { [FAULT_HEADER]: 'cut-after=4' } })
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as { error: { error: { type: string } } }).error.error.type).toBe('api_error');
  });
});
