import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG } from '../../../src/models/catalog.js';
import { createServedModels, type ServedModel } from '../../../src/models/served-models.js';
import { createRouter, type Route } from '../../../src/routing/routes.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';
import { SPEC_MODEL_IDS } from './spec-matrix.js';

// Never called: the listing only reads the routes.
const upstream = (name: string, format: Upstream['format']): Upstream => ({ name, format, send: () => Promise.reject(new Error('not called')) });
const local = upstream('local', 'chat');
const vendor = upstream('vendor', 'messages');

function served(routes: readonly Route[]) {
  return createServedModels({ catalog: DEFAULT_CATALOG, routing: { routes, resolve: createRouter(routes).resolve } });
}

const ids = (models: readonly ServedModel[]): string[] => models.map((model) => model.id).sort();

describe('served models without routes (the simulator)', () => {
  it("lists the spec's twelve models, each on both interfaces, and the simulator's embedding models", () => {
    const { listed } = createServedModels({ catalog: DEFAULT_CATALOG });
    const chat = listed.filter((model) => model.embeddings !== true);
    expect(ids(chat)).toEqual([...SPEC_MODEL_IDS].sort());
    expect(chat.every((model) => model.messages && model.entry?.id === model.id)).toBe(true);
    const embeddings = listed.filter((model) => model.embeddings === true);
    // The simulator answers OpenAI's embedding models only, not the other vendors' the gateway knows.
    expect(ids(embeddings)).toEqual(['text-embedding-3-large', 'text-embedding-3-small', 'text-embedding-ada-002']);
    expect(embeddings.every((model) => !model.messages && model.entry === undefined)).toBe(true);
  });
});

describe('served models with routes', () => {
  it("lists Google's embedding model on a route with its published size (3072, shortened down to 128)", () => {
    const models = served([{ match: 'gemini-embedding-001', upstream: local }]);
    expect(models.listed).toHaveLength(1);
    const [gemini] = models.listed;
    expect(gemini).toMatchObject({ id: 'gemini-embedding-001', embeddings: true, embedding: { dimensions: 3072, shortens: true, minDimensions: 128 } });
    const byPattern = served([{ match: 'gemini-*', upstream: local }]);
    expect(byPattern.find('gemini-embedding-001')?.embedding?.dimensions).toBe(3072);
  });

  it('an exact-id route lists its id and no catalog model', () => {
    const models = served([{ match: 'llama-3.1-8b', upstream: local }]);
    expect(models.listed).toEqual([{ id: 'llama-3.1-8b', messages: false }]);
    expect(models.find('vendora-opus-5')).toBeUndefined();
  });

  it("a catch-all route to a chat upstream lists nothing, yet GET /v1/models/{id} finds what it serves", () => {
    const models = served([{ match: '*', upstream: local }]);
    expect(models.listed).toEqual([]);
    expect(models.find('qwen2.5-7b')).toEqual({ id: 'qwen2.5-7b', messages: false });
  });

  it('a pattern route lists the ids in its `list`', () => {
    const models = served([{ match: 'llama-*', upstream: local, list: ['llama-3.1-8b', 'llama-3.1-70b'] }]);
    expect(ids(models.listed)).toEqual(['llama-3.1-70b', 'llama-3.1-8b']);
  });

  it('a RegExp or function route lists its `list` too', () => {
    const models = served([
      { match: /^gpt-/, upstream: local, list: ['gpt-4o'] },
      { match: (model) => model.startsWith('mistral'), upstream: local, list: ['mistral-small'] },
    ]);
    expect(ids(models.listed)).toEqual(['gpt-4o', 'mistral-small']);
  });

  it('a catalog model is listed only when a route serves it, with its catalog row', () => {
    const models = served([{ match: 'vendora-sonnet-4-6', upstream: vendor }, { match: 'llama-*', upstream: local, list: ['llama-3.1-8b'] }]);
    expect(ids(models.listed)).toEqual(['llama-3.1-8b', 'vendora-sonnet-4-6']);
    const sonnet = models.listed.find((model) => model.id === 'vendora-sonnet-4-6');
    expect(sonnet?.entry).toBe(DEFAULT_CATALOG.get('vendora-sonnet-4-6'));
    expect(sonnet?.messages).toBe(true);
  });

  it('a pattern route to the messages format lists the catalog models it matches; to the chat format, none', () => {
    expect(ids(served([{ match: 'vendora-*', upstream: vendor }]).listed)).toEqual([...SPEC_MODEL_IDS].sort());
    expect(ids(served([{ match: 'vendora-opus-*', upstream: vendor }]).listed)).toEqual(SPEC_MODEL_IDS.filter((id) => id.startsWith('vendora-opus-')).sort());
    expect(served([{ match: 'vendora-*', upstream: local }]).listed).toEqual([]);
    // A chat fallback: the route is not only the vendor's format.
    expect(served([{ match: 'vendora-*', upstream: vendor, fallbacks: [local] }]).listed).toEqual([]);
  });

  it('`list: []` lists nothing, even for a messages-format pattern route', () => {
    expect(served([{ match: 'vendora-*', upstream: vendor, list: [] }]).listed).toEqual([]);
  });

  it('catalog models an earlier chat route takes are not listed by a later messages route', () => {
    const models = served([{ match: '*', upstream: local }, { match: 'vendora-*', upstream: vendor }]);
    expect(models.listed).toEqual([]);
  });

  it('an id is described by the route the router sends it to (the first that matches)', () => {
    const models = served([
      { match: 'house-*', upstream: local, serveMessages: true, list: ['house-small'] },
      { match: 'house-small', upstream: local },
    ]);
    expect(models.listed).toEqual([{ id: 'house-small', messages: true }]);
  });

  it('interfaces: a catalog model on a chat route is chat-only unless the route has serveMessages; a route-only model needs serveMessages', () => {
    const models = served([
      { match: 'vendora-opus-5', upstream: local },
      { match: 'vendora-haiku-4-5', upstream: local, serveMessages: true },
      { match: 'vendora-sonnet-4-6', targets: [{ upstream: vendor }, { upstream: local }] },
      { match: 'house-msg', upstream: vendor },
      { match: 'house-opt-in', upstream: local, serveMessages: true },
    ]);
    const messages = Object.fromEntries(models.listed.map((model) => [model.id, model.messages]));
    expect(messages).toEqual({ 'vendora-opus-5': false, 'vendora-haiku-4-5': true, 'vendora-sonnet-4-6': false, 'house-msg': false, 'house-opt-in': true });
  });

  it('each id once, newest first with catalog dates, then route-only ids by name', () => {
    const models = served([
      { match: 'zeta', upstream: local },
      { match: 'alpha', upstream: local },
      { match: 'vendora-haiku-4-5', upstream: vendor },
      { match: 'vendora-opus-5', upstream: vendor },
      { match: 'vendora-*', upstream: vendor, list: ['vendora-opus-5'] },
    ]);
    const opus = Date.parse(DEFAULT_CATALOG.get('vendora-opus-5')!.createdAt);
    const haiku = Date.parse(DEFAULT_CATALOG.get('vendora-haiku-4-5')!.createdAt);
    const catalogOrder = opus >= haiku ? ['vendora-opus-5', 'vendora-haiku-4-5'] : ['vendora-haiku-4-5', 'vendora-opus-5'];
    expect(models.listed.map((model) => model.id)).toEqual([...catalogOrder, 'alpha', 'zeta']);
  });
});
