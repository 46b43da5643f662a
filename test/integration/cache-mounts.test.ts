/**
 * The response cache's headers through the framework mounts the other
 * cache suites do not use (Koa, Fastify, the Fetch-API handler under Hono):
 * a miss says `x-modelgate-cache: miss` without `age`, a hit says `hit` with
 * the entry's age in whole seconds, for JSON and streamed answers of the
 * chat and messages interfaces; a bypass says `bypass`.
 */
import { memoryResponseCache } from 'modelgate';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedAnswerUpstream, TOOL_CALLS } from '../helpers/fixed-answer-upstream.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-cache-mounts-0123456789';
const MOUNTS: readonly Mount[] = ['koa3', 'koa2+bodyparser', 'fastify5', 'fastify4', 'hono'];

let started: StartedApp[] = [];
afterEach(async () => {
  await Promise.all(started.map((app) => app.close()));
  started = [];
});

async function setup(mount: Mount) {
  let offsetMs = 0;
  const chat = fixedAnswerUpstream('chat');
  const messages = fixedAnswerUpstream('messages');
  const app = await startApp(mount, {
    auth: { keys: [{ key: KEY, id: 'mounts' }] },
    routes: [
      { match: 'gpt-4o', upstream: chat, retries: 0 },
      { match: 'vendora-sonnet-4-6', upstream: messages, retries: 0 },
    ],
    cache: { store: memoryResponseCache({ now: () => Date.now() + offsetMs }) },
  });
  started.push(app);
  return {
    app,
    chat,
    messages,
    advance: (ms: number) => {
      offsetMs += ms;
    },
  };
}

async function post(app: StartedApp, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, cache: response.headers.get('x-modelgate-cache'), age: response.headers.get('age'), type: response.headers.get('content-type'), text: await response.text() };
}

const chatBody = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Paris and Oslo?' }] };
const messagesBody = { model: 'vendora-sonnet-4-6', max_tokens: 512, messages: [{ role: 'user', content: 'Weather in Paris and Oslo?' }] };

describe.each(MOUNTS)('response cache headers on %s', (mount) => {
  it('chat: miss without age, then JSON and streamed hits with the age in seconds', async () => {
    const { app, chat, advance } = await setup(mount);
    const miss = await post(app, '/v1/chat/completions', chatBody);
    expect(miss).toMatchObject({ status: 200, cache: 'miss', age: null });
    advance(7_000);
    const hit = await post(app, '/v1/chat/completions', chatBody);
    expect(hit).toMatchObject({ status: 200, cache: 'hit', age: '7' });
    const toolCallIds = (JSON.parse(hit.text) as { choices: Array<{ message: { tool_calls: Array<{ id: string }> } }> }).choices[0]!.message.tool_calls.map((call) => call.id);
    expect(toolCallIds).toEqual(TOOL_CALLS.map((call) => call.id));
    advance(2_000);
    const streamed = await post(app, '/v1/chat/completions', { ...chatBody, stream: true });
    expect(streamed).toMatchObject({ status: 200, cache: 'hit', age: '9' });
    expect(streamed.type).toContain('text/event-stream');
    expect(streamed.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(chat.calls).toBe(1);
  });

  it('messages: a streamed miss, then a JSON hit; no-store bypasses', async () => {
    const { app, messages, advance } = await setup(mount);
    const miss = await post(app, '/v1/messages', { ...messagesBody, stream: true });
    expect(miss).toMatchObject({ status: 200, cache: 'miss', age: null });
    expect(miss.text).toContain('event: message_stop');
    advance(61_000);
    const hit = await post(app, '/v1/messages', messagesBody);
    expect(hit).toMatchObject({ status: 200, cache: 'hit', age: '61' });
    expect((JSON.parse(hit.text) as { stop_reason: string }).stop_reason).toBe('tool_use');
    const bypass = await post(app, '/v1/messages', messagesBody, { 'cache-control': 'no-store' });
    expect(bypass).toMatchObject({ status: 200, cache: 'bypass', age: null });
    expect(messages.calls).toBe(2);
  });
});
