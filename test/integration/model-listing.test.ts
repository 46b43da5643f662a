/**
 * `GET /v1/models` on a gateway with routes, over real HTTP with both
 * official clients: it lists what the routes serve (an exact-id route, a
 * pattern route's `list`, a routed catalog model), never the catalog models
 * no route serves, and each key sees only its `allowedModels`. Every listed
 * model answers a call. The messages 404 names what `/v1/messages` serves
 * and `serveMessages` for a model routed to the chat format only.
 */
import Anthropic from '@anthropic-ai/sdk';
import { messagesUpstream, openAICompatible } from 'modelgate';
import { createSimulator, type SimulatorServer } from 'modelgate/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const RESTRICTED_KEY = 'sk-model-listing-restricted-0123456789';
const RESTRICTED_MODELS = ['llama-3.1-8b', 'qwen-2.5-7b', 'vendora-sonnet-4-6'];

/** What the routes below serve by name: the exact ids, the pattern route's `list`, the routed catalog models. */
const LISTED = ['llama-3.1-8b', 'qwen-2.5-7b', 'qwen-2.5-32b', 'vendora-sonnet-4-6', 'vendora-opus-5'].sort();

describe.each(['node', 'express5'] as const)('the model listing behind %s', (mount) => {
  let upstream: SimulatorServer;
  let app: StartedApp;

  beforeAll(async () => {
    // The simulator over HTTP plays both upstreams: a local OpenAI-compatible server and the vendor's API.
    upstream = await createSimulator().listen();
    const local = openAICompatible({ baseURL: `${upstream.url}/v1`, name: 'local' });
    const vendor = messagesUpstream({ baseURL: upstream.url, apiKey: 'sk-vendor', name: 'vendor' });
    app = await startApp(mount, {
      auth: { keys: [KEY, { key: RESTRICTED_KEY, id: 'restricted', allowedModels: RESTRICTED_MODELS }] },
      routes: [
        { match: 'llama-3.1-8b', upstream: local },
        { match: 'qwen-*', upstream: local, list: ['qwen-2.5-7b', 'qwen-2.5-32b'] },
        { match: 'vendora-sonnet-4-6', upstream: vendor },
        { match: 'vendora-opus-5', upstream: local },
        { match: 'mistral-*', upstream: local },
      ],
    });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  async function vendorIds(apiKey: string): Promise<string[]> {
    const ids: string[] = [];
    // A page of 2 walks the vendor client's pagination (after_id) to the end.
    for await (const model of anthropicClient(app.url, apiKey).models.list({ limit: 2 })) ids.push(model.id);
    return ids;
  }

  it('openai models.list(): the routed ids, no unrouted catalog model, no pattern without a list', async () => {
    const page = await openAIClient(app.url).models.list();
    expect(page.data.map((model) => model.id).sort()).toEqual(LISTED);
    const llama = page.data.find((model) => model.id === 'llama-3.1-8b');
    expect(llama).toMatchObject({ object: 'model', owned_by: 'modelgate' });
  });

  it('anthropic models.list(): the same ids across pages, each once', async () => {
    const ids = await vendorIds(KEY);
    expect(ids.sort()).toEqual(LISTED);
  });

  it('a key with allowedModels sees only those it may call, with both clients', async () => {
    const expected = [...RESTRICTED_MODELS].sort();
    const page = await openAIClient(app.url, RESTRICTED_KEY).models.list();
    expect(page.data.map((model) => model.id).sort()).toEqual(expected);
    expect((await vendorIds(RESTRICTED_KEY)).sort()).toEqual(expected);
  });

  it('every listed model answers a chat call', async () => {
    const openai = openAIClient(app.url);
    for (const model of LISTED) {
      const completion = await openai.chat.completions.create({ model, max_completion_tokens: 16, messages: [{ role: 'user', content: 'Hello.' }] });
      expect(completion.choices[0]?.message.content, model).toBeTruthy();
    }
  });

  it('the listing says which interfaces take each model', async () => {
    const page = await openAIClient(app.url).models.list();
    const interfaces = Object.fromEntries(page.data.map((model) => [model.id, (model as unknown as { modelgate: { interfaces: string[] } }).modelgate.interfaces]));
    expect(interfaces['vendora-sonnet-4-6']).toEqual(['chat', 'messages']);
    expect(interfaces['vendora-opus-5']).toEqual(['chat']);
    expect(interfaces['llama-3.1-8b']).toEqual(['chat']);
  });

  it('models.retrieve: a model a pattern route serves; 404 for an unrouted catalog model and for a model the key may not use', async () => {
    expect((await openAIClient(app.url).models.retrieve('mistral-small')).id).toBe('mistral-small');
    expect((await anthropicClient(app.url).models.retrieve('qwen-2.5-32b')).id).toBe('qwen-2.5-32b');
    expect(await failure(() => openAIClient(app.url).models.retrieve('vendora-haiku-4-5'))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await failure(() => openAIClient(app.url, RESTRICTED_KEY).models.retrieve('qwen-2.5-32b'))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  describe('the messages 404', () => {
    const call = (model: string) => () =>
      anthropicClient(app.url).messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hello.' }] });

    it.each(['llama-3.1-8b', 'vendora-opus-5'])('%s, routed to the chat format only: names serveMessages and lists what /v1/messages serves', async (model) => {
      const error = await failure(call(model));
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      const { message } = error as Error;
      expect(message).toContain(`model: ${model} is served on /v1/chat/completions only`);
      expect(message).toContain('`serveMessages: true`');
      // The SDK's message quotes the JSON body: the list ends where the message does.
      expect(message).toContain('Available models: vendora-sonnet-4-6."');
    });

    it('a model no route serves: lists only what /v1/messages serves, not the catalog', async () => {
      const error = await failure(call('vendora-haiku-4-5'));
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      const { message } = error as Error;
      expect(message).not.toContain('serveMessages');
      expect(message).toContain('model: vendora-haiku-4-5 is not available on /v1/messages. Available models: vendora-sonnet-4-6."');
    });

    it('the served model itself answers on /v1/messages', async () => {
      const answer = await call('vendora-sonnet-4-6')();
      expect(answer.content[0]?.type).toBe('text');
    });
  });
});
