/**
 * What a Responses request's references may cost (how many there may be is
 * a request bound, `test/unit/bounds/`): each distinct id read once however
 * often it is named, and the resolved input
 * capped in JSON bytes (`maxResolvedInputBytes`: the chain, the request's
 * own items and the resolved ones), refused as soon as it passes.
 */
import { isGatewayError, memoryResponseStore, type ResponseItem, type ResponseStore } from 'modelgate';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_BOUNDS } from '../../../src/bounds/request-bounds-options.js';
import { resolveInput } from '../../../src/responses/resolve-input.js';
import { countingResponseStore, type CountingResponseStore } from '../../helpers/counting-response-store.js';
import { message, storedResponse } from '../../helpers/response-store-contract.js';

/** A stored message of about 10 KB of JSON. */
const BIG = message('msg_big', 'x'.repeat(10_000));
const BIG_BYTES = Buffer.byteLength(JSON.stringify(BIG));
const REASONING = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: `mg1.${'s'.repeat(5_000)}` };
const reference = (id: string) => ({ type: 'item_reference', id });

let batched: CountingResponseStore;
let single: CountingResponseStore;

beforeEach(async () => {
  const inner = memoryResponseStore();
  const distinct = Array.from({ length: 5 }, (_, i) => message(`msg_d${i}`, `${i}`.repeat(10_000)));
  await inner.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [BIG, ...distinct], output: [REASONING] }));
  batched = countingResponseStore(inner);
  single = countingResponseStore(inner, { batch: false });
});

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { status: error.status, param: error.param, message: error.message };
  }
  throw new Error('expected resolveInput to fail');
}

const bounds = (overrides: Partial<typeof DEFAULT_REQUEST_BOUNDS> = {}) => ({ ...DEFAULT_REQUEST_BOUNDS, ...overrides });

describe('resolveInput: references read once each', () => {
  it('2,000 references to one 10 KB item: one store read; the input holds the item 2,000 times (20 MB, within the default 32 MiB)', async () => {
    const input = Array.from({ length: 2_000 }, () => reference('msg_big'));
    const items = await resolveInput({ input }, { owner: 'alice', store: batched, bounds: bounds({ maxItemReferences: 2_000 }) });
    expect(batched.reads).toEqual({ get: [], getItem: [], getItems: [['msg_big']] });
    expect(items).toHaveLength(2_000);
    for (const item of items) expect(item).toEqual(BIG);
    expect(Buffer.byteLength(JSON.stringify(items))).toBeGreaterThan(20_000_000);
  });

  it('a store without getItems is read once per distinct id', async () => {
    const input = [reference('msg_big'), reference('msg_d0'), reference('msg_big'), reference('msg_d0'), reference('msg_big')];
    const items = await resolveInput({ input }, { owner: 'alice', store: single, bounds: bounds() });
    expect(single.reads.getItem).toEqual(['msg_big', 'msg_d0']);
    expect(items.map((item) => item.id)).toEqual(['msg_big', 'msg_d0', 'msg_big', 'msg_d0', 'msg_big']);
  });

  it('reasoning items sent by id alone: one read per distinct id, each occurrence completed with the sealed content', async () => {
    const input = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      reference('msg_big'),
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'again' }] },
    ];
    const items = await resolveInput({ input }, { owner: 'alice', store: batched, bounds: bounds() });
    expect(batched.reads.getItems).toEqual([['rs_1', 'msg_big']]);
    expect(batched.reads.getItem).toEqual([]);
    expect(items[0]).toEqual({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: REASONING.encrypted_content });
    expect(items[2]).toEqual({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'again' }], encrypted_content: REASONING.encrypted_content });
  });
});

describe('resolveInput: many references', () => {
  it('1,000 references to one item resolve (how many a request may send is a request bound, checked at the edge)', async () => {
    const input = Array.from({ length: 1_000 }, () => reference('msg_big'));
    const items = await resolveInput({ input }, { owner: 'alice', store: batched, bounds: bounds() });
    expect(items).toHaveLength(1_000);
  });
});

describe('resolveInput: at most maxResolvedInputBytes once resolved', () => {
  it('2,000 references to a 10 KB item under a 1 MiB cap → 400 naming input and the bound', async () => {
    const input = Array.from({ length: 2_000 }, () => reference('msg_big'));
    const failure = await failureOf(resolveInput({ input }, { owner: 'alice', store: batched, bounds: bounds({ maxItemReferences: 2_000, maxResolvedInputBytes: 1_048_576 }) }));
    expect(failure).toMatchObject({ status: 400, param: 'input' });
    expect(failure.message).toContain('requestBounds.maxResolvedInputBytes');
    expect(failure.message).toContain('1048576');
  });

  it('stops reading as soon as the total passes the cap (a store without getItems: the later ids are never read)', async () => {
    const input = Array.from({ length: 5 }, (_, i) => reference(`msg_d${i}`));
    // Room for two of the five 10 KB items, not three.
    const failure = await failureOf(resolveInput({ input }, { owner: 'alice', store: single, bounds: bounds({ maxResolvedInputBytes: 2.5 * BIG_BYTES }) }));
    expect(failure).toMatchObject({ status: 400, param: 'input' });
    expect(single.reads.getItem).toEqual(['msg_d0', 'msg_d1', 'msg_d2']);
  });

  it('the cap just above the resolved size passes; just below it fails', async () => {
    const input = [reference('msg_big'), reference('msg_big'), reference('msg_big')];
    const exact = Buffer.byteLength(JSON.stringify([BIG, BIG, BIG]));
    const options = (max: number) => ({ owner: 'alice', store: batched, bounds: bounds({ maxResolvedInputBytes: max }) });
    expect(await resolveInput({ input }, options(exact + 8))).toHaveLength(3);
    await expect(resolveInput({ input }, options(exact - 8))).rejects.toMatchObject({ status: 400, param: 'input' });
  });

  it('the previous_response_id chain counts: a chain larger than the cap is refused', async () => {
    const failure = await failureOf(resolveInput({ previous_response_id: 'resp_1', input: 'Next' }, { owner: 'alice', store: batched, bounds: bounds({ maxResolvedInputBytes: BIG_BYTES }) }));
    expect(failure).toMatchObject({ status: 400, param: 'input' });
    expect(failure.message).toContain('requestBounds.maxResolvedInputBytes');
  });

  it("the request's own items count with the resolved ones", async () => {
    const own = { type: 'message', role: 'user', content: 'y'.repeat(BIG_BYTES) };
    const options = { owner: 'alice', store: batched, bounds: bounds({ maxResolvedInputBytes: 1.5 * BIG_BYTES }) };
    expect(await resolveInput({ input: [reference('msg_big')] }, options)).toHaveLength(1);
    await expect(resolveInput({ input: [own, reference('msg_big')] }, options)).rejects.toMatchObject({ status: 400, param: 'input' });
  });

  it('reasoning items completed by id count with their sealed content', async () => {
    const byId = { type: 'reasoning', id: 'rs_1', summary: [] };
    const options = { owner: 'alice', store: batched, bounds: bounds({ maxResolvedInputBytes: 3 * REASONING.encrypted_content.length }) };
    expect(await resolveInput({ input: [byId, byId] }, options)).toHaveLength(2);
    await expect(resolveInput({ input: [byId, byId, byId] }, options)).rejects.toMatchObject({ status: 400, param: 'input' });
  });

  it('an input that reads nothing from the store is not measured (the body limit bounds it)', async () => {
    const input: ResponseItem[] = [{ id: 'msg_own', type: 'message', role: 'user', content: 'z'.repeat(1_000) }];
    expect(await resolveInput({ input }, { owner: 'alice', store: batched, bounds: bounds({ maxResolvedInputBytes: 100 }) })).toHaveLength(1);
  });
});

describe('resolveInput: the one definition of a stored-item lookup', () => {
  it('an item_reference with an empty id is refused with a 400 naming its place, before the store is read', async () => {
    const input = [reference('msg_big'), { type: 'message', role: 'user', content: 'Hi' }, reference('')];
    expect(await failureOf(resolveInput({ input }, { owner: 'alice', store: single, bounds: bounds() }))).toMatchObject({
      status: 400,
      param: 'input.2.id',
      message: expect.stringContaining('id is empty'),
    });
    expect(single.reads.getItem).toEqual(['msg_big']);
  });

  it('a reasoning item with an empty id is neither counted nor looked up: it is sent as it came, with an id of its own', async () => {
    const sent = { type: 'reasoning', id: '', summary: [] };
    const items = await resolveInput({ input: [sent] }, { owner: 'alice', store: batched, bounds: bounds() });
    expect(batched.readCount).toBe(0);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ type: 'reasoning', summary: [] });
    expect(items[0]!.id).toMatch(/^rs_./);
  });
});

/** `inner`, recording the byte budget each batch lookup is given. */
function budgetRecording(inner: ResponseStore) {
  const asked: (number | undefined)[] = [];
  const store: ResponseStore = {
    ...inner,
    getItems: (owner, ids, options) => {
      asked.push(options?.maxBytes);
      return inner.getItems!(owner, ids, options);
    },
  };
  return { store, asked };
}

describe('resolveInput: a batch lookup reads within the size budget', () => {
  it('the store is given what is left of maxResolvedInputBytes; past it, the request is refused (400) with what the store found', async () => {
    const inner = memoryResponseStore();
    for (let i = 0; i < 50; i++) await inner.put(storedResponse({ id: `resp_${i}`, owner: 'alice', input: [message(`msg_${i}`, 'x'.repeat(10_000))], output: [] }));
    const { store, asked } = budgetRecording(inner);
    const input = [{ type: 'message', role: 'user', content: 'Hi' }, ...Array.from({ length: 50 }, (_, i) => reference(`msg_${i}`))];
    expect(await failureOf(resolveInput({ input }, { owner: 'alice', store, bounds: bounds({ maxResolvedInputBytes: 100_000 }) }))).toMatchObject({
      status: 400,
      param: 'input',
      message: expect.stringMatching(/stored responses that together are larger than 100000 bytes.*maxResolvedInputBytes/),
    });
    expect(asked).toEqual([100_000]);
  });

  it('after a previous_response_id chain, only the rest of the budget', async () => {
    const inner = memoryResponseStore();
    const chainItem = message('msg_chain', 'c'.repeat(1_000));
    await inner.put(storedResponse({ id: 'resp_chain', owner: 'alice', input: [chainItem], output: [] }));
    await inner.put(storedResponse({ id: 'resp_other', owner: 'alice', input: [message('msg_other', 'o')], output: [] }));
    const { store, asked } = budgetRecording(inner);
    const items = await resolveInput({ previous_response_id: 'resp_chain', input: [reference('msg_other')] }, { owner: 'alice', store, bounds: bounds({ maxResolvedInputBytes: 50_000 }) });
    expect(items.map((item) => item.id)).toEqual(['msg_chain', 'msg_other']);
    // The chain's one item and its comma.
    expect(asked).toEqual([50_000 - Buffer.byteLength(JSON.stringify(chainItem)) - 1]);
  });
});
