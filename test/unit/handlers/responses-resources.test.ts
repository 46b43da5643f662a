/**
 * `GET`/`DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`
 * through the gateway's core `handle`: cursor pages (after, limit, order,
 * has_more, first_id/last_id), bad query values as 400s naming the
 * parameter, `include=reasoning.encrypted_content`, owners, no store.
 */
import { createGateway, type Gateway, memoryResponseStore, type ResponseItem, type ResponseStore } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { message, storedResponse } from '../../helpers/response-store-contract.js';

const ALICE = 'sk-alice-0123456789abcdef';
const BOB = 'sk-bob-0123456789abcdef01';
const AUTH = { keys: [{ key: ALICE, id: 'alice' }, { key: BOB, id: 'bob' }] };

const INPUT: ResponseItem[] = [
  message('msg_a', 'one'),
  message('msg_b', 'two'),
  { id: 'rs_c', type: 'reasoning', summary: [], encrypted_content: 'mg1.sealed-c' },
  message('msg_d', 'four'),
  message('msg_e', 'five'),
];
const OUTPUT: ResponseItem[] = [{ id: 'rs_out', type: 'reasoning', summary: [], encrypted_content: 'mg1.sealed-out' }, message('msg_out', 'done', 'assistant')];

type Json = Record<string, any>;

let store: ResponseStore;
let gateway: Gateway;

beforeEach(async () => {
  store = memoryResponseStore();
  await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: structuredClone(INPUT), output: structuredClone(OUTPUT) }));
  gateway = createGateway({ auth: AUTH, responseStore: store, routes: [{ match: '*', upstream: createSimulator().upstreams.chat }] });
});

async function send(method: string, url: string, key = ALICE, target: Gateway = gateway): Promise<{ status: number; body: Json }> {
  const response = await target.handle({ method, url, headers: { authorization: `Bearer ${key}` }, signal: new AbortController().signal });
  if (response.type !== 'json') throw new Error(`expected a JSON answer, got ${response.type}`);
  return { status: response.status, body: response.body as Json };
}

const ids = (body: Json): string[] => (body.data as Json[]).map((item) => item.id as string);

describe('GET /v1/responses/{id}/input_items', () => {
  it('newest first by default, the whole list when it fits', async () => {
    const { status, body } = await send('GET', '/v1/responses/resp_1/input_items');
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: 'list', first_id: 'msg_e', last_id: 'msg_a', has_more: false });
    expect(ids(body)).toEqual(['msg_e', 'msg_d', 'rs_c', 'msg_b', 'msg_a']);
  });

  it('order=asc lists them as sent', async () => {
    const { body } = await send('GET', '/v1/responses/resp_1/input_items?order=asc');
    expect(ids(body)).toEqual(['msg_a', 'msg_b', 'rs_c', 'msg_d', 'msg_e']);
  });

  it('pages with limit and after, has_more until the last page (asc)', async () => {
    const first = await send('GET', '/v1/responses/resp_1/input_items?order=asc&limit=2');
    expect(first.body).toMatchObject({ first_id: 'msg_a', last_id: 'msg_b', has_more: true });
    const second = await send('GET', `/v1/responses/resp_1/input_items?order=asc&limit=2&after=${first.body.last_id}`);
    expect(second.body).toMatchObject({ first_id: 'rs_c', last_id: 'msg_d', has_more: true });
    const third = await send('GET', `/v1/responses/resp_1/input_items?order=asc&limit=2&after=${second.body.last_id}`);
    expect(third.body).toMatchObject({ first_id: 'msg_e', last_id: 'msg_e', has_more: false });
    expect(ids(third.body)).toEqual(['msg_e']);
  });

  it('pages newest first (desc) with after', async () => {
    const first = await send('GET', '/v1/responses/resp_1/input_items?order=desc&limit=3');
    expect(ids(first.body)).toEqual(['msg_e', 'msg_d', 'rs_c']);
    expect(first.body.has_more).toBe(true);
    const second = await send('GET', '/v1/responses/resp_1/input_items?limit=3&after=rs_c');
    expect(ids(second.body)).toEqual(['msg_b', 'msg_a']);
    expect(second.body.has_more).toBe(false);
  });

  it('a page exactly at the end has no more', async () => {
    const { body } = await send('GET', '/v1/responses/resp_1/input_items?limit=5');
    expect(body.has_more).toBe(false);
    const after = await send('GET', '/v1/responses/resp_1/input_items?after=msg_a');
    expect(after.body).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=ten', 'limit'],
    ['order=newest', 'order'],
    ['after=msg_nope', 'after'],
  ])('%s → 400 naming %s', async (query, param) => {
    const { status, body } = await send('GET', `/v1/responses/resp_1/input_items?${query}`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(body.error.message).toMatch(new RegExp(`^${param}: `));
  });

  it('reasoning items hide encrypted_content unless include=reasoning.encrypted_content', async () => {
    const plain = await send('GET', '/v1/responses/resp_1/input_items?order=asc');
    expect(plain.body.data[2]).toEqual({ id: 'rs_c', type: 'reasoning', summary: [], encrypted_content: null });
    for (const query of ['include=reasoning.encrypted_content', 'include[]=reasoning.encrypted_content', `include=${encodeURIComponent('reasoning.encrypted_content')}&include=other`]) {
      const { body } = await send('GET', `/v1/responses/resp_1/input_items?order=asc&${query}`);
      expect(body.data[2]).toMatchObject({ id: 'rs_c', encrypted_content: 'mg1.sealed-c' });
    }
  });

  it("another owner's response → 404 response_not_found", async () => {
    const { status, body } = await send('GET', '/v1/responses/resp_1/input_items', BOB);
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'response_not_found', param: 'response_id' });
  });
});

describe('GET /v1/responses/{id}', () => {
  it('returns the stored response, reasoning with encrypted_content null', async () => {
    const { status, body } = await send('GET', '/v1/responses/resp_1');
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 'resp_1', object: 'response', status: 'completed' });
    expect(body.output[0]).toEqual({ id: 'rs_out', type: 'reasoning', summary: [], encrypted_content: null });
    expect(body.output[1]).toEqual(OUTPUT[1]);
  });

  it('include=reasoning.encrypted_content keeps it', async () => {
    const { body } = await send('GET', '/v1/responses/resp_1?include=reasoning.encrypted_content');
    expect(body.output[0]).toMatchObject({ id: 'rs_out', encrypted_content: 'mg1.sealed-out' });
  });

  it("another owner's id → 404 response_not_found; an unknown id too", async () => {
    for (const [url, key] of [['/v1/responses/resp_1', BOB], ['/v1/responses/resp_none', ALICE]] as const) {
      const { status, body } = await send('GET', url, key);
      expect(status).toBe(404);
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'response_not_found' });
      expect(body.error.message).toContain('made with another key');
    }
  });
});

describe('DELETE /v1/responses/{id}', () => {
  it('answers {id, object, deleted: true}; the response and its items are gone', async () => {
    const { status, body } = await send('DELETE', '/v1/responses/resp_1');
    expect(status).toBe(200);
    expect(body).toEqual({ id: 'resp_1', object: 'response', deleted: true });
    expect((await send('GET', '/v1/responses/resp_1')).status).toBe(404);
    expect(await store.getItem('alice', 'msg_a')).toBeUndefined();
    expect((await send('DELETE', '/v1/responses/resp_1')).status).toBe(404);
  });

  it("another owner's delete → 404 and the response stays", async () => {
    expect((await send('DELETE', '/v1/responses/resp_1', BOB)).status).toBe(404);
    expect((await send('GET', '/v1/responses/resp_1')).status).toBe(200);
  });
});

describe('without a response store', () => {
  it.each([
    ['GET', '/v1/responses/resp_1'],
    ['DELETE', '/v1/responses/resp_1'],
    ['GET', '/v1/responses/resp_1/input_items'],
  ])('%s %s → 404 saying no store is configured', async (method, url) => {
    const bare = createGateway({ auth: AUTH, routes: [{ match: '*', upstream: createSimulator().upstreams.chat }] });
    const { status, body } = await send(method, url, ALICE, bare);
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'response_not_found' });
    expect(body.error.message).toBe("No response found with id 'resp_1'. This gateway keeps no responses: no `responseStore` is configured.");
  });
});
