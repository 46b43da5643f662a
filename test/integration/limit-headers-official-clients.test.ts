/**
 * The limit headers and the 429 as the official clients see them, in both
 * interfaces (Koa). Redis stopped mid-test: limits-outage.redis.test.ts.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createGateway } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const chatBody = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hello' }] };

describe('limit headers and 429s through the official clients', () => {
  let app: StartedApp;

  beforeAll(async () => {
    app = await startApp('koa3', createGateway({
      auth: { keys: [KEY] },
      limits: { rules: [{ requests: { limit: 10, windowSeconds: 60 }, tokens: { limit: 6000, windowSeconds: 60 } }, { models: 'gpt-4o-mini', requests: { limit: 1, windowSeconds: 60 } }] },
    }));
  });
  afterAll(() => app.close());

  it('chat: x-ratelimit-* with durations, and a RateLimitError with retry-after', async () => {
    const openai = openAIClient(app.url);
    const { response } = await openai.chat.completions.create(chatBody).withResponse();
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('10');
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('9');
    // One request refills in 60 s / 10 = 6 s: the bucket is full again 6 s after taking one.
    expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(/^(6s|5\.\d+s)$/);
    expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('6000');
    expect(Number(response.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(6000);
    expect(response.headers.get('x-ratelimit-reset-tokens')).toMatch(/^\d+(\.\d+)?m?s$/);

    await openai.chat.completions.create({ ...chatBody, model: 'gpt-4o-mini' });
    const error = await failure(() => openai.chat.completions.create({ ...chatBody, model: 'gpt-4o-mini' }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.code).toBe('rate_limit_exceeded');
    // The most restrictive rule is shown: the model rule's 1 per minute.
    expect(rateLimit.headers.get('x-ratelimit-limit-requests')).toBe('1');
    expect(rateLimit.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const retryAfter = Number(rateLimit.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('messages: anthropic-ratelimit-* with RFC 3339 resets, and a RateLimitError', async () => {
    const anthropic = anthropicClient(app.url);
    const before = Date.now();
    const { response } = await anthropic.messages.create({ model: 'vendora-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] }).withResponse();
    expect(response.headers.get('anthropic-ratelimit-requests-limit')).toBe('10');
    expect(response.headers.get('anthropic-ratelimit-tokens-limit')).toBe('6000');
    const reset = response.headers.get('anthropic-ratelimit-requests-reset')!;
    expect(reset).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Each request taken refills in 60 s / 10 = 6 s (the chat test above used some of the same key's requests).
    const taken = 10 - Number(response.headers.get('anthropic-ratelimit-requests-remaining'));
    expect(taken).toBeGreaterThanOrEqual(1);
    expect(Date.parse(reset) - before).toBeGreaterThan(taken * 6000 - 2000);
    expect(Date.parse(reset) - before).toBeLessThan(taken * 6000 + 3000);

    const tooBig = await failure(() =>
      anthropic.messages.create({ model: 'vendora-haiku-4-5', max_tokens: 7000, messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(tooBig).toBeInstanceOf(Anthropic.RateLimitError);
    const refused = tooBig as InstanceType<typeof Anthropic.RateLimitError>;
    expect(refused.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining('never fit') } });
    expect(refused.headers.get('x-should-retry')).toBe('false');
  });
});
