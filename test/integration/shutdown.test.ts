/**
 * Graceful shutdown with streams in flight, on Express and Fastify (and the
 * fetch handler): new model calls are refused at once (503 / 529 "shutting
 * down"), a stream that ends within the grace period completes normally,
 * one still open at its end gets an error event in its format and its
 * upstream body is stopped, and every call's usage is reported before
 * `shutdown()` resolves.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openAICompatible, type UsageRecord } from 'modelgate';
import { startCommandStub } from '../helpers/command-stub.js';
import { anthropicClient, AUTH, openAIClient } from '../helpers/e2e-fixtures.js';
import { FIRST_WORDS, heldUpstream } from '../helpers/held-upstream.js';
import { type Mount, startApp } from '../helpers/start-app.js';

const MODEL = 'gpt-4o';
const ASK = [{ role: 'user' as const, content: 'Say hello.' }];
const GRACE_MS = 800;

/** Reads a stream to its end: the text, and the error it ended with, if any. */
async function readAll(chunks: AsyncIterator<unknown>, text: (chunk: unknown) => string): Promise<{ text: string; error?: unknown }> {
  let out = '';
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) return { text: out };
      out += text(next.value);
    }
  } catch (error) {
    return { text: out, error };
  }
}

const chatText = (chunk: unknown): string => (chunk as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '';
const messagesText = (event: unknown): string => {
  const e = event as { type: string; delta?: { type: string; text?: string } };
  return e.type === 'content_block_delta' && e.delta?.type === 'text_delta' ? (e.delta.text ?? '') : '';
};

describe.each(['express5', 'fastify5', 'hono'] as Mount[])('shutdown on %s', (mount) => {
  it('refuses new calls, completes a stream that ends within grace, ends a longer one with an error event, reports every usage', async () => {
    const upstream = heldUpstream();
    const usage: UsageRecord[] = [];
    const app = await startApp(mount, { auth: AUTH, routes: [{ match: '*', upstream, serveMessages: true }], onUsage: (record) => usage.push(record) });
    try {
      const chat = openAIClient(app.url);
      const messages = anthropicClient(app.url);
      // Three streams in flight: a short chat one, a long chat one, a long messages one (translated from the chat upstream).
      const short = (await chat.chat.completions.create({ model: MODEL, messages: ASK, stream: true }))[Symbol.asyncIterator]();
      const longChat = (await chat.chat.completions.create({ model: MODEL, messages: ASK, stream: true }))[Symbol.asyncIterator]();
      const longMessages = (await messages.messages.create({ model: MODEL, max_tokens: 50, messages: ASK, stream: true }))[Symbol.asyncIterator]();
      await upstream.calledTimes(3);
      const reading = [readAll(short, chatText), readAll(longChat, chatText), readAll(longMessages, messagesText)];

      const startedAt = Date.now();
      let resolvedAt = 0;
      const shutdown = app.gateway.shutdown({ graceMs: GRACE_MS }).then(() => {
        resolvedAt = Date.now();
      });

      // New model calls are refused at once, in each format.
      const refusedChat = await chat.chat.completions.create({ model: MODEL, messages: ASK }).then(() => undefined, (error: unknown) => error);
      expect(refusedChat).toBeInstanceOf(OpenAI.APIError);
      expect((refusedChat as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
      expect((refusedChat as InstanceType<typeof OpenAI.APIError>).code).toBe('overloaded');
      expect((refusedChat as Error).message).toContain('shutting down');
      expect((refusedChat as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('1');
      const refusedMessages = await messages.messages.create({ model: MODEL, max_tokens: 50, messages: ASK }).then(() => undefined, (error: unknown) => error);
      expect(refusedMessages).toBeInstanceOf(Anthropic.APIError);
      expect((refusedMessages as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
      expect(upstream.calls).toHaveLength(3);

      // The short stream ends within the grace period.
      upstream.complete(0);
      const [shortResult, chatResult, messagesResult] = await Promise.all(reading);
      await shutdown;

      expect(shortResult).toEqual({ text: `${FIRST_WORDS} world.` });
      expect(chatResult!.text).toBe(FIRST_WORDS);
      expect(chatResult!.error).toBeInstanceOf(OpenAI.APIError);
      expect((chatResult!.error as Error).message).toContain('shut down');
      expect(messagesResult!.text).toBe(FIRST_WORDS);
      expect(messagesResult!.error).toBeInstanceOf(Anthropic.APIError);
      expect(JSON.stringify((messagesResult!.error as { error?: unknown }).error)).toContain('overloaded_error');
      // The long streams were cut at the grace deadline, not before; their upstream bodies were stopped.
      expect(resolvedAt - startedAt).toBeGreaterThanOrEqual(GRACE_MS - 50);
      expect(upstream.bodies[0]!.returned).toBe(false);
      expect(upstream.bodies[1]!.returned).toBe(true);
      expect(upstream.bodies[2]!.returned).toBe(true);
      // One usage record per call, all in before shutdown() resolved.
      expect(usage).toHaveLength(3);
      expect(usage.filter((record) => record.stream && record.outputTokens === 3)).toHaveLength(1);
    } finally {
      for (const body of upstream.bodies) void body.return();
      await app.close();
    }
  });

  it('resolves as soon as the last stream ends when that is before the grace period', async () => {
    const upstream = heldUpstream();
    const app = await startApp(mount, { auth: AUTH, routes: [{ match: '*', upstream, serveMessages: true }] });
    try {
      const stream = (await openAIClient(app.url).chat.completions.create({ model: MODEL, messages: ASK, stream: true }))[Symbol.asyncIterator]();
      await upstream.calledTimes(1);
      const reading = readAll(stream, chatText);
      const startedAt = Date.now();
      const shutdown = app.gateway.shutdown({ graceMs: 30_000 });
      setTimeout(() => upstream.complete(0), 100);
      await shutdown;
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      expect(await reading).toEqual({ text: `${FIRST_WORDS} world.` });
    } finally {
      await app.close();
    }
  });
});

describe.each(['express5', 'hono'] as Mount[])('shutdown with a non-streamed call still waiting on %s', (mount) => {
  it('ends the call at the grace deadline (503 in its format, its upstream request aborted) instead of waiting for the upstream', async () => {
    const stub = await startCommandStub();
    stub.delayMs = 60_000;
    const app = await startApp(mount, {
      auth: AUTH,
      routes: [{ match: '*', upstream: openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-up', name: 'slow' }), retries: 0 }],
    });
    try {
      const pending = openAIClient(app.url)
        .chat.completions.create({ model: MODEL, messages: ASK })
        .then(() => undefined, (error: unknown) => error);
      for (let waited = 0; stub.requests.length < 1; waited += 10) {
        if (waited > 10_000) throw new Error('the call never reached the upstream');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const startedAt = Date.now();
      await app.gateway.shutdown({ graceMs: 300 });
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      const error = await pending;
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
      expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('overloaded');
      // The upstream request was aborted: its connection closed before the stub answered.
      await stub.closed(0);
      expect(stub.requests[0]!.completed).toBe(false);
    } finally {
      await app.close();
      await stub.close();
    }
  });
});
