/**
 * The whole input of a Responses request: the `previous_response_id`
 * chain, `item_reference`s, reasoning items sent back by id, fresh ids, and
 * the errors when a stored thing is missing (with and without a store).
 */
import { isGatewayError, memoryResponseStore, type ResponseStore } from 'modelgate';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_BOUNDS } from '../../../src/bounds/request-bounds-options.js';
import { resolveInput } from '../../../src/responses/resolve-input.js';
import { message, storedResponse } from '../../helpers/response-store-contract.js';

const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'thought' }], encrypted_content: 'mg1.sealed' };

const bounds = DEFAULT_REQUEST_BOUNDS;

let store: ResponseStore;

beforeEach(async () => {
  store = memoryResponseStore();
  await store.put(
    storedResponse({
      id: 'resp_1',
      owner: 'alice',
      input: [message('msg_in_1', 'First question')],
      output: [reasoning, message('msg_out_1', 'First answer', 'assistant')],
    }),
  );
});

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { status: error.status, param: error.param, code: error.chatCode, message: error.message };
  }
  throw new Error('expected resolveInput to fail');
}

describe('resolveInput', () => {
  it('a string input is one user message with a fresh msg_ id', async () => {
    const items = await resolveInput({ input: 'Hello' }, { owner: 'alice', store: undefined, bounds });
    expect(items).toEqual([{ type: 'message', role: 'user', content: 'Hello', id: expect.stringMatching(/^msg_[0-9a-f]{48}$/) }]);
  });

  it('gives every item without an id one of its type, and keeps the ids sent', async () => {
    const items = await resolveInput(
      {
        input: [
          { role: 'user', content: 'Hi' },
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: 'ok' },
          { type: 'message', role: 'user', content: 'again', id: 'msg_mine' },
        ],
      },
      { owner: 'alice', store: undefined, bounds },
    );
    expect(items.map((item) => item.id)).toEqual([expect.stringMatching(/^msg_/), expect.stringMatching(/^fc_/), expect.stringMatching(/^fco_/), 'msg_mine']);
    expect(items[0]).toMatchObject({ type: 'message', role: 'user' });
    expect(new Set(items.map((item) => item.id)).size).toBe(4);
  });

  it('previous_response_id: that response input, then its output, then the new input', async () => {
    const items = await resolveInput({ previous_response_id: 'resp_1', input: 'Second question' }, { owner: 'alice', store, bounds });
    expect(items.map((item) => item.id)).toEqual(['msg_in_1', 'rs_1', 'msg_out_1', expect.stringMatching(/^msg_/)]);
    expect(items[3]).toMatchObject({ role: 'user', content: 'Second question' });
  });

  it('previous_response_id of another owner → 400 previous_response_not_found', async () => {
    const failure = await failureOf(resolveInput({ previous_response_id: 'resp_1', input: 'x' }, { owner: 'bob', store, bounds }));
    expect(failure).toMatchObject({ status: 400, param: 'previous_response_id', code: 'previous_response_not_found' });
    expect(failure.message).toContain("'resp_1'");
  });

  it('previous_response_id without a store → 400 saying no store is configured', async () => {
    const failure = await failureOf(resolveInput({ previous_response_id: 'resp_1', input: 'x' }, { owner: 'alice', store: undefined, bounds }));
    expect(failure).toMatchObject({ status: 400, param: 'previous_response_id', code: 'previous_response_not_found' });
    expect(failure.message).toContain('no `responseStore` is configured');
  });

  it('an item_reference is replaced by the stored item (input or output)', async () => {
    const items = await resolveInput(
      { input: [{ type: 'item_reference', id: 'msg_out_1' }, { role: 'user', content: 'Next' }, { type: 'item_reference', id: 'msg_in_1' }] },
      { owner: 'alice', store, bounds },
    );
    expect(items[0]).toEqual(message('msg_out_1', 'First answer', 'assistant'));
    expect(items[2]).toEqual(message('msg_in_1', 'First question'));
  });

  it('an item_reference that resolves to nothing → 400 item_not_found naming its place', async () => {
    const failure = await failureOf(resolveInput({ input: [{ role: 'user', content: 'Hi' }, { type: 'item_reference', id: 'msg_nope' }] }, { owner: 'alice', store, bounds }));
    expect(failure).toMatchObject({ status: 400, param: 'input.1.id', code: 'item_not_found' });
    expect(failure.message).toContain("'msg_nope'");
  });

  it("another owner's item_reference reads as missing", async () => {
    const failure = await failureOf(resolveInput({ input: [{ type: 'item_reference', id: 'msg_out_1' }] }, { owner: 'bob', store, bounds }));
    expect(failure).toMatchObject({ status: 400, code: 'item_not_found' });
  });

  it('an item_reference without a store → 400 item_not_found saying no store is configured', async () => {
    const failure = await failureOf(resolveInput({ input: [{ type: 'item_reference', id: 'msg_out_1' }] }, { owner: 'alice', store: undefined, bounds }));
    expect(failure).toMatchObject({ status: 400, param: 'input.0.id', code: 'item_not_found' });
    expect(failure.message).toContain('no `responseStore` is configured');
  });

  it('a reasoning item sent back by id alone gets its sealed content from the store', async () => {
    const items = await resolveInput({ input: [{ type: 'reasoning', id: 'rs_1', summary: [] }] }, { owner: 'alice', store, bounds });
    expect(items).toEqual([{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'mg1.sealed' }]);
  });

  it('a reasoning item by id that the store lacks (or another owner) passes as sent', async () => {
    const sent = { type: 'reasoning', id: 'rs_unknown', summary: [] };
    expect(await resolveInput({ input: [sent] }, { owner: 'alice', store, bounds })).toEqual([sent]);
    expect(await resolveInput({ input: [{ ...sent, id: 'rs_1' }] }, { owner: 'bob', store, bounds })).toEqual([{ ...sent, id: 'rs_1' }]);
  });

  it('a reasoning item that carries its encrypted_content keeps it (the store is not read)', async () => {
    const sent = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'mg1.client' };
    expect(await resolveInput({ input: [sent] }, { owner: 'alice', store, bounds })).toEqual([sent]);
  });

  it('an empty previous_response_id is no chain', async () => {
    const items = await resolveInput({ previous_response_id: '', input: 'Hi' }, { owner: 'alice', store: undefined, bounds });
    expect(items).toHaveLength(1);
  });
});
