/**
 * The Redis response store behind a real gateway, over real HTTP with the
 * official `openai` client, on node:http and Express: a conversation of
 * `previous_response_id` turns resolves whole while each turn stores only
 * its own items, and a key past its quota gets a 400 in the Responses
 * format before any upstream call, while another key is unaffected.
 */
import { createGateway, openAICompatible, redisResponseStore } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../helpers/e2e-fixtures.js';
import { useRedisClients } from '../helpers/redis-clients.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';

const ALICE = 'sk-alice-0123456789abcdef';
const BOB = 'sk-bob-0123456789abcdef01';
const MODEL = 'gpt-4o-mini';
const QUOTA = 4;

const redis = useRedisClients();

/** The chat messages (role and text) of an upstream request body. */
function messagesOf(body: string): { role: string; content: unknown }[] {
  return (JSON.parse(body) as { messages: { role: string; content: unknown }[] }).messages.map(({ role, content }) => ({ role, content }));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
}

describe.each(['node', 'express5'] as const)('stored responses on Redis, through %s', (mount) => {
  let stub: StubUpstream;
  let app: StartedApp;
  let alice: OpenAI;
  let bob: OpenAI;
  const prefix = `quota-${mount}:`;

  beforeAll(async () => {
    // Answers "answer <n>" to the n-th call, so each turn's answer is known.
    stub = await startStubUpstream((_request, index) => ({
      kind: 'json',
      body: {
        id: `chatcmpl-${index}`,
        object: 'chat.completion',
        created: 1_764_000_000,
        model: MODEL,
        choices: [{ index: 0, message: { role: 'assistant', content: `answer ${index + 1}` }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
      },
    }));
    const gateway = createGateway({
      auth: { keys: [{ key: ALICE, id: 'alice' }, { key: BOB, id: 'bob' }] },
      responseStore: redisResponseStore({ client: redis.io, prefix, maxResponsesPerOwner: QUOTA }),
      routes: [{ match: '*', upstream: openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-upstream', name: 'stub' }) }],
    });
    app = await startApp(mount, gateway);
    alice = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: ALICE, maxRetries: 0 });
    bob = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: BOB, maxRetries: 0 });
  });

  afterAll(async () => {
    await app?.close();
    await stub?.close();
  });

  it('a conversation of previous_response_id turns reaches the upstream whole; each stored turn keeps only its own input', async () => {
    let previous: string | undefined;
    const ids: string[] = [];
    for (let turn = 1; turn <= QUOTA; turn++) {
      const response = await alice.responses.create({ model: MODEL, input: `question ${turn}`, ...(previous ? { previous_response_id: previous } : {}) });
      ids.push(response.id);
      previous = response.id;
    }
    const sent = messagesOf(stub.requests.at(-1)!.body).map(({ role, content }) => `${role}: ${textOf(content)}`);
    const first = stub.requests.length - QUOTA + 1;
    expect(sent).toEqual([
      'user: question 1',
      `assistant: answer ${first}`,
      'user: question 2',
      `assistant: answer ${first + 1}`,
      'user: question 3',
      `assistant: answer ${first + 2}`,
      'user: question 4',
    ]);
    const listed = await alice.responses.inputItems.list(ids.at(-1)!, { order: 'asc' });
    expect(listed.data.map((item) => item.type)).toEqual(['message', 'message', 'message', 'message', 'message', 'message', 'message']);
    // What Redis keeps of the last turn: its own question, and a link.
    const kept = JSON.parse((await redis.io.get(`${prefix}resp:{alice}:${ids.at(-1)}`))!) as { input: unknown[] };
    expect(kept.input).toHaveLength(1);
    expect(await redis.io.hget(`${prefix}links:{alice}`, ids.at(-1)!)).toBe(ids.at(-2));
  });

  it('past maxResponsesPerOwner: 400 response_store_quota_exceeded before the upstream is called, whole or streamed; store: false still answers', async () => {
    const calls = stub.requests.length;
    const refused = (await failure(() => alice.responses.create({ model: MODEL, input: 'one more' }))) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused.status).toBe(400);
    expect(refused.code).toBe('response_store_quota_exceeded');
    expect(refused.param).toBe('store');
    expect(refused.message).toMatch(/maxResponsesPerOwner/);
    expect(refused.message).toMatch(/"store": false/);
    const streamed = (await failure(async () => {
      const stream = await alice.responses.create({ model: MODEL, input: 'one more', stream: true });
      for await (const _event of stream) void _event;
    })) as InstanceType<typeof OpenAI.APIError>;
    expect(streamed.status).toBe(400);
    expect(stub.requests.length).toBe(calls);

    const unstored = await alice.responses.create({ model: MODEL, input: 'not kept', store: false });
    expect(unstored.status).toBe('completed');
    expect(stub.requests.length).toBe(calls + 1);
  });

  it('another key is not affected by a full quota: Bob stores and continues his own conversation', async () => {
    const first = await bob.responses.create({ model: MODEL, input: 'hello from bob' });
    const second = await bob.responses.create({ model: MODEL, input: 'and again', previous_response_id: first.id });
    expect(second.status).toBe('completed');
    const sent = messagesOf(stub.requests.at(-1)!.body).map(({ content }) => textOf(content));
    expect(sent[0]).toBe('hello from bob');
    expect(sent.at(-1)).toBe('and again');
  });

  it('deleting a stored response frees its place', async () => {
    const refused = (await failure(() => alice.responses.create({ model: MODEL, input: 'after delete' }))) as InstanceType<typeof OpenAI.APIError>;
    expect(refused.status).toBe(400);
    const oldest = (await redis.io.zrange(`${prefix}owner:{alice}`, '0', '0'))[0]!;
    await alice.responses.delete(oldest);
    expect(((await failure(() => alice.responses.retrieve(oldest))) as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
    const kept = await alice.responses.create({ model: MODEL, input: 'after delete' });
    expect(kept.status).toBe('completed');
    expect((await alice.responses.retrieve(kept.id)).id).toBe(kept.id);
  });
});
