/**
 * The guarded response store: a failure or time-out of any command is a
 * 503 naming the response store with `retry-after` (never the store's own
 * text), quota refusals pass as they are, and a store without `checkRoom`
 * still refuses it at once during the back-off.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { GuardedResponseStore } from '../../../src/responses/guarded-response-store.js';
import { responseStoreFull } from '../../../src/responses/responses-errors.js';
import { renderError } from '../../../src/render-error.js';
import type { StoredResponse } from '../../../src/responses/response-store.js';
import { STORE_ERROR_TEXT, switchableResponseStore } from '../../helpers/switchable-response-store.js';

const record: StoredResponse = { id: 'resp_1', owner: 'alice', createdAt: 1, response: { id: 'resp_1', output: [] }, input: [] };

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('GuardedResponseStore', () => {
  it('works as the store it guards while the store works', async () => {
    const guarded = new GuardedResponseStore(switchableResponseStore(), { timeoutMs: 1000, retryMs: 5000 });
    await guarded.put(record);
    expect((await guarded.get('alice', 'resp_1'))?.id).toBe('resp_1');
    expect(await guarded.get('bob', 'resp_1')).toBeUndefined();
    expect(await guarded.delete('alice', 'resp_1')).toBe(true);
  });

  it.each(['get', 'getItem', 'getItems', 'checkRoom', 'put', 'delete'] as const)('%s failing → 503 naming the response store, with retry-after and none of its own text', async (operation) => {
    const store = switchableResponseStore();
    store.modes['*'] = 'fail';
    const guarded = new GuardedResponseStore(store, { timeoutMs: 1000, retryMs: 5000 });
    const calls = {
      get: () => guarded.get('alice', 'resp_1'),
      getItem: () => guarded.getItem('alice', 'msg_1'),
      getItems: () => guarded.getItems!('alice', ['msg_1']),
      checkRoom: () => guarded.checkRoom('alice'),
      put: () => guarded.put(record),
      delete: () => guarded.delete('alice', 'resp_1'),
    };
    const error = await rejection(calls[operation]());
    expect(error).toBeInstanceOf(GatewayError);
    const gatewayError = error as GatewayError;
    expect(gatewayError.status).toBe(503);
    expect(gatewayError.headers['retry-after']).toBe('5');
    expect(gatewayError.message).toContain('response store is unavailable');
    expect(gatewayError.message).not.toContain('10.11.12.13');
    // In the OpenAI envelope the Responses API uses.
    const rendered = renderError(gatewayError, 'chat');
    expect(rendered.status).toBe(503);
    expect(JSON.stringify(rendered.body)).not.toContain(STORE_ERROR_TEXT);
    expect(rendered.body).toMatchObject({ error: { type: 'server_error', code: 'response_store_unavailable' } });
  });

  it('a read that does not answer fails at the time-out', async () => {
    const store = switchableResponseStore();
    store.modes.get = 'hang';
    const guarded = new GuardedResponseStore(store, { timeoutMs: 50, retryMs: 5000 });
    const started = performance.now();
    const error = await rejection(guarded.get('alice', 'resp_1'));
    expect(performance.now() - started).toBeLessThan(1000);
    expect((error as GatewayError).message).toContain('no answer within 50 ms');
  });

  it('during the back-off no command reaches the store, checkRoom included when the store has none', async () => {
    const store = switchableResponseStore({ checkRoom: false });
    store.modes.get = 'fail';
    const guarded = new GuardedResponseStore(store, { timeoutMs: 1000, retryMs: 5000 });
    await guarded.checkRoom('alice');
    await rejection(guarded.get('alice', 'resp_1'));
    store.modes.get = 'up';
    const reached = store.calls.length;
    for (const call of [() => guarded.checkRoom('alice'), () => guarded.put(record), () => guarded.get('alice', 'resp_1')]) {
      expect(await rejection(call())).toMatchObject({ status: 503 });
    }
    expect(store.calls.length).toBe(reached);
  });

  it("passes the store's quota refusal (4xx) as it is, and goes on using the store", async () => {
    const store = switchableResponseStore();
    const full = responseStoreFull({ kind: 'count', max: 3 });
    store.checkRoom = () => Promise.reject(full);
    const guarded = new GuardedResponseStore(store, { timeoutMs: 1000, retryMs: 5000 });
    expect(await rejection(guarded.checkRoom('alice'))).toBe(full);
    await guarded.put(record);
    expect((await guarded.get('alice', 'resp_1'))?.id).toBe('resp_1');
  });

  it('has getItems only when the store has it', () => {
    const store = switchableResponseStore();
    delete store.getItems;
    expect(new GuardedResponseStore(store, { timeoutMs: 1000, retryMs: 5000 }).getItems).toBeUndefined();
    expect(new GuardedResponseStore(switchableResponseStore(), { timeoutMs: 1000, retryMs: 5000 }).getItems).toBeTypeOf('function');
  });
});
