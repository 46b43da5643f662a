/**
 * A key's `allowedModels` over HTTP with the official clients: a glob lets
 * the key call the models it matches, on both interfaces, and any other
 * model is a 403 in the format of the interface called.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, failure, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const GLOB_KEY = 'sk-glob-0123456789abcdef';
const user = [{ role: 'user' as const, content: 'Hello.' }];

describe('allowedModels with a glob', () => {
  let app: StartedApp;
  beforeAll(async () => {
    app = await startApp('express5+json', { auth: { keys: [{ key: GLOB_KEY, allowedModels: ['vendora-sonnet-*', 'gpt-4o'] }] } });
  });
  afterAll(() => app.close());

  it('chat completions: a model the glob matches answers', async () => {
    const completion = await openAIClient(app.url, GLOB_KEY).chat.completions.create({ model: 'vendora-sonnet-4-6', messages: user });
    expect(completion.choices[0]?.message.role).toBe('assistant');
  });

  it('messages: a model the glob matches answers', async () => {
    const message = await anthropicClient(app.url, GLOB_KEY).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 32, messages: user });
    expect(message.role).toBe('assistant');
  });

  it('a model outside the list is 403 on each interface', async () => {
    const chatError = await failure(() => openAIClient(app.url, GLOB_KEY).chat.completions.create({ model: 'gpt-4o-mini', messages: user }));
    expect(chatError).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((chatError as InstanceType<typeof OpenAI.APIError>).code).toBe('model_not_allowed');
    const messagesError = await failure(() => anthropicClient(app.url, GLOB_KEY).messages.create({ model: 'vendora-opus-4-8', max_tokens: 32, messages: user }));
    expect(messagesError).toBeInstanceOf(Anthropic.PermissionDeniedError);
  });
});
