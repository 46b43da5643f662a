import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { listModels, retrieveModel, type ListedModel } from '../../../src/handlers/models.js';
import { createServedModels, type ServedModel } from '../../../src/models/served-models.js';
import { createRouter } from '../../../src/routing/routes.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';
import { DEFAULT_CATALOG } from '../../../src/models/catalog.js';
import { chatModelListSchema, chatModelSchema } from '../../../src/schemas/chat.js';
import { messagesModelListSchema, messagesModelSchema } from '../../../src/schemas/messages.js';
import type { Principal } from '../../../src/types.js';
import { SPEC_MATRIX, SPEC_MODEL_IDS } from '../models/spec-matrix.js';

interface ListBody {
  object: 'list';
  data: ListedModel[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

const SERVED = createServedModels({ catalog: DEFAULT_CATALOG });

function list(query: Record<string, string>, options: { principal?: Principal; vendorClient?: boolean } = {}, models: readonly ServedModel[] = SERVED.listed): ListBody {
  const response = listModels(models, query, { vendorClient: options.vendorClient ?? true, ...options });
  expect(response.type).toBe('json');
  expect(response.status).toBe(200);
  return response.body as ListBody;
}

function thrown(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a GatewayError');
}

function expectNewestFirst(data: readonly ListedModel[]): void {
  for (let i = 1; i < data.length; i += 1) {
    const previous = data[i - 1] as ListedModel;
    const current = data[i] as ListedModel;
    expect(Date.parse(previous.created_at)).toBeGreaterThanOrEqual(Date.parse(current.created_at));
  }
}

describe('GET /v1/models: the listing', () => {
  it("lists the twelve models of the spec's matrix, newest first, both list shapes", () => {
    const body = list({});
    expect(body.object).toBe('list');
    expect(body.data.map((model) => model.id).sort()).toEqual([...SPEC_MODEL_IDS].sort());
    expect(body.has_more).toBe(false);
    expect(body.first_id).toBe(body.data[0]?.id);
    expect(body.last_id).toBe(body.data.at(-1)?.id);
    expectNewestFirst(body.data);
    expect(chatModelListSchema.safeParse(body).success).toBe(true);
    expect(messagesModelListSchema.safeParse(body).success).toBe(true);
  });

  it('the newest model comes before the oldest', () => {
    const ids = list({}).data.map((model) => model.id);
    const dates = ids.map((id) => Date.parse(DEFAULT_CATALOG.get(id)?.createdAt ?? ''));
    expect(dates[0]).toBe(Math.max(...dates));
    expect(dates.at(-1)).toBe(Math.min(...dates));
  });

  it.each(SPEC_MODEL_IDS)('%s carries both entry shapes', (id) => {
    const entry = list({}).data.find((model) => model.id === id);
    expect(entry).toBeDefined();
    if (!entry) return;
    // chat client shape
    expect(entry.object).toBe('model');
    expect(Number.isInteger(entry.created)).toBe(true);
    expect(entry.created).toBe(Date.parse(entry.created_at) / 1000);
    expect(entry.created).toBeGreaterThan(1_600_000_000);
    expect(entry.owned_by).toBe('vendora');
    // vendor client shape
    expect(entry.type).toBe('model');
    expect(entry.display_name).toMatch(/^Vendora /);
    expect(entry.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(chatModelSchema.safeParse(entry).success).toBe(true);
    expect(messagesModelSchema.safeParse(entry).success).toBe(true);
  });

  it.each(SPEC_MATRIX)("$id: modelgate capabilities match the spec's model matrix", (row) => {
    const entry = list({}).data.find((model) => model.id === row.id);
    expect(entry?.modelgate).toEqual({
      interfaces: ['chat', 'messages'],
      temperature: row.temperature,
      thinking: row.thinking,
      caching: row.caching,
      min_cacheable_tokens: row.minCacheableTokens,
    });
  });
});

describe('GET /v1/models: pagination', () => {
  it('walks every page with limit 5: each model exactly once, has_more false at the end', () => {
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let query: Record<string, string> = { limit: '5' };
    for (let guard = 0; guard < 10; guard += 1) {
      const page = list(query);
      pageSizes.push(page.data.length);
      seen.push(...page.data.map((model) => model.id));
      expect(page.first_id).toBe(page.data[0]?.id ?? null);
      expect(page.last_id).toBe(page.data.at(-1)?.id ?? null);
      if (!page.has_more) break;
      query = { limit: '5', after_id: page.last_id ?? '' };
    }
    expect(pageSizes).toEqual([5, 5, 2]);
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    expect([...seen].sort()).toEqual([...SPEC_MODEL_IDS].sort());
    // Same order as the unpaged listing.
    expect(seen).toEqual(list({}).data.map((model) => model.id));
  });

  it('walks backwards with before_id', () => {
    const all = list({}).data.map((model) => model.id);
    const last = list({ limit: '5', after_id: all[6] as string });
    expect(last.data.map((model) => model.id)).toEqual(all.slice(7, 12));
    expect(last.has_more).toBe(false);
    const previous = list({ limit: '5', before_id: last.first_id as string });
    expect(previous.data.map((model) => model.id)).toEqual(all.slice(2, 7));
    expect(previous.has_more).toBe(true);
    const first = list({ limit: '5', before_id: previous.first_id as string });
    expect(first.data.map((model) => model.id)).toEqual(all.slice(0, 2));
    expect(first.has_more).toBe(false);
  });

  it('after_id and before_id together give the models between them', () => {
    const all = list({}).data.map((model) => model.id);
    const page = list({ after_id: all[2] as string, before_id: all[6] as string });
    expect(page.data.map((model) => model.id)).toEqual(all.slice(3, 6));
    expect(page.has_more).toBe(false);
  });

  it('after the last model: empty page, null ids, has_more false', () => {
    const all = list({}).data.map((model) => model.id);
    const page = list({ after_id: all.at(-1) as string });
    expect(page).toEqual({ object: 'list', data: [], has_more: false, first_id: null, last_id: null });
  });

  it('limit 1 and 1000 are valid', () => {
    const one = list({ limit: '1' });
    expect(one.data).toHaveLength(1);
    expect(one.has_more).toBe(true);
    expect(list({ limit: '1000' }).data).toHaveLength(12);
  });

  it.each(['0', '1001', '-1', '2.5', 'abc', '', '1e400'])('limit %j → 400 INVALID_REQUEST', (limit) => {
    const error = thrown(() => listModels(SERVED.listed, { limit }, { vendorClient: true }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.param).toBe('limit');
    expect(error.message).toContain('limit');
  });

  it.each(['after_id', 'before_id'])('unknown %s → 400 naming the param', (param) => {
    const error = thrown(() => listModels(SERVED.listed, { [param]: 'vendora-nope' }, { vendorClient: true }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.param).toBe(param);
    expect(error.message).toContain('vendora-nope');
  });
});

describe('GET /v1/models: default page size per client', () => {
  // Never called: the listing only reads routes.
  const local: Upstream = { name: 'local', format: 'chat', send: () => Promise.reject(new Error('not called')) };
  const vendor: Upstream = { name: 'vendor', format: 'messages', send: () => Promise.reject(new Error('not called')) };
  const routeIds = Array.from({ length: 30 }, (_, i) => `route-model-${String(i).padStart(2, '0')}`);
  const routes = [
    { match: 'vendora-*', upstream: vendor },
    { match: 'route-model-*', upstream: local, list: routeIds },
  ];
  const many = createServedModels({ catalog: DEFAULT_CATALOG, routing: { routes, resolve: createRouter(routes).resolve } }).listed;

  it('the chat client (vendorClient false) gets every model without a limit', () => {
    const body = list({}, { vendorClient: false }, many);
    expect(body.data).toHaveLength(42);
    expect(body.has_more).toBe(false);
  });

  it('the vendor client gets 20 and has_more', () => {
    const body = list({}, { vendorClient: true }, many);
    expect(body.data).toHaveLength(20);
    expect(body.has_more).toBe(true);
  });

  it('an explicit limit applies to the chat client too', () => {
    expect(list({ limit: '3' }, { vendorClient: false }, many).data).toHaveLength(3);
  });

  it('route-only models: listed after the catalog ones, chat interface only, unknown capabilities', () => {
    const body = list({}, { vendorClient: false }, many);
    const ids = body.data.map((model) => model.id);
    expect(ids.slice(0, 12).sort()).toEqual([...SPEC_MODEL_IDS].sort());
    const route = body.data.find((model) => model.id === 'route-model-07');
    expect(route).toMatchObject({
      object: 'model',
      // Neutral: never the upstream's name, which defaults to its host and port.
      owned_by: 'modelgate',
      type: 'model',
      display_name: 'route-model-07',
      created: 0,
      modelgate: { interfaces: ['chat'], temperature: 'accepted', thinking: 'unknown', caching: 'unknown', min_cacheable_tokens: null },
    });
    expect(chatModelListSchema.safeParse(body).success).toBe(true);
    expect(messagesModelListSchema.safeParse(body).success).toBe(true);
  });

});

describe('principal allowedModels', () => {
  const principal: Principal = { id: 'team', allowedModels: ['vendora-opus-5', 'vendora-haiku-4-5', 'not-served'] };

  it('filters the listing', () => {
    const body = list({}, { principal });
    expect(body.data.map((model) => model.id).sort()).toEqual(['vendora-haiku-4-5', 'vendora-opus-5']);
    expect(body.has_more).toBe(false);
  });

  it('pages within the filtered listing; hidden ids are unknown cursors', () => {
    const page = list({ limit: '1' }, { principal });
    expect(page.has_more).toBe(true);
    const next = list({ limit: '1', after_id: page.last_id as string }, { principal });
    expect(next.has_more).toBe(false);
    expect(thrown(() => listModels(SERVED.listed, { after_id: 'vendora-sonnet-5' }, { principal, vendorClient: true })).status).toBe(400);
  });

  it('filters retrieve: hidden models are 404', () => {
    expect(retrieveModel(SERVED, 'vendora-opus-5', principal).status).toBe(200);
    const error = thrown(() => retrieveModel(SERVED, 'vendora-sonnet-5', principal));
    expect(error.status).toBe(404);
    expect(error.code).toBe('MODEL_NOT_FOUND');
  });

  it('an empty allow-list sees nothing', () => {
    expect(list({}, { principal: { id: 'none', allowedModels: [] } }).data).toEqual([]);
  });
});

describe('GET /v1/models/{id}', () => {
  it.each(SPEC_MODEL_IDS)('%s → 200 with both shapes', (id) => {
    const response = retrieveModel(SERVED, id, undefined);
    expect(response).toMatchObject({ type: 'json', status: 200 });
    const body = response.body as ListedModel;
    expect(body.id).toBe(id);
    expect(chatModelSchema.safeParse(body).success).toBe(true);
    expect(messagesModelSchema.safeParse(body).success).toBe(true);
    expect(body).toEqual(list({}).data.find((model) => model.id === id));
  });

  it('unknown → 404 MODEL_NOT_FOUND naming it', () => {
    const error = thrown(() => retrieveModel(SERVED, 'vendora-opus-9', undefined));
    expect(error.status).toBe(404);
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.message).toContain('vendora-opus-9');
    expect(error.chatCode).toBe('model_not_found');
  });
});
