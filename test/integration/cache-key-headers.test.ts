/**
 * The response cache keys the caller headers that reach an upstream and can
 * change its answer (`anthropic-beta`, an operator's `forwardHeaders`), and
 * not the trace context that travels with them.
 */
import Anthropic from '@anthropic-ai/sdk';
import { memoryResponseCache } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { countCalls } from '../helpers/counting-upstream.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-cache-headers-0123456789';
const BETA = 'interleaved-thinking-2025-05-14';

let started: StartedApp[] = [];
afterEach(async () => {
  await Promise.all(started.map((app) => app.close()));
  started = [];
});

async function setup(mount: 'node' | 'express5') {
  const sim = createSimulator();
  const chat = countCalls(sim.upstreams.chat);
  const messages = countCalls(sim.upstreams.messages);
  const app = await startApp(mount, {
    auth: { keys: [{ key: KEY, id: 'team' }] },
    forwardHeaders: ['x-answer-style'],
    routes: [
      { match: 'gpt-4o', upstream: chat, retries: 0 },
      { match: 'vendora-*', upstream: messages, retries: 0 },
    ],
    cache: { store: memoryResponseCache() },
  });
  started.push(app);
  return { app, chat, messages };
}

describe.each(['node', 'express5'] as const)('cache key and forwarded headers on %s', (mount) => {
  it('a different anthropic-beta is a different entry; the same one hits', async () => {
    const { app, messages } = await setup(mount);
    const ask = (headers: Record<string, string>) =>
      new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 0, defaultHeaders: headers }).messages
        .create({ model: 'vendora-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user', content: 'Which beta am I on?' }] })
        .withResponse();
    expect((await ask({})).response.headers.get('x-modelgate-cache')).toBe('miss');
    expect((await ask({ 'anthropic-beta': BETA })).response.headers.get('x-modelgate-cache')).toBe('miss');
    expect((await ask({ 'anthropic-beta': BETA })).response.headers.get('x-modelgate-cache')).toBe('hit');
    expect((await ask({})).response.headers.get('x-modelgate-cache')).toBe('hit');
    expect(messages.calls).toBe(2);
  });

  it("an operator's forwarded header is in the key; trace context is not", async () => {
    const { app, chat } = await setup(mount);
    const ask = (headers: Record<string, string>) =>
      new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0, defaultHeaders: headers }).chat.completions
        .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Answer in my style.' }] })
        .withResponse();
    const trace = (n: number) => `00-${String(n).padStart(32, '0')}-${String(n).padStart(16, '0')}-01`;
    expect((await ask({ 'x-answer-style': 'terse', traceparent: trace(1) })).response.headers.get('x-modelgate-cache')).toBe('miss');
    expect((await ask({ 'x-answer-style': 'terse', traceparent: trace(2) })).response.headers.get('x-modelgate-cache')).toBe('hit');
    expect((await ask({ 'x-answer-style': 'verbose', traceparent: trace(3) })).response.headers.get('x-modelgate-cache')).toBe('miss');
    expect(chat.calls).toBe(2);
  });
});
