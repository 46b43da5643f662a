/**
 * The in-memory response store: the shared contract, then its own bounds
 * (count, bytes, TTL on a fake clock) and its options.
 */
import { isGatewayConfigError, memoryResponseStore, type StoredResponse } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { describeResponseStoreContract, message, storedResponse } from '../../helpers/response-store-contract.js';

describeResponseStoreContract('memory', () => memoryResponseStore());

const HOUR = 3_600_000;

function record(id: string, text = `text of ${id}`): StoredResponse {
  return storedResponse({ id, owner: 'alice', input: [message(`msg_in_${id}`, text)], output: [message(`msg_out_${id}`, 'ok', 'assistant')] });
}

/** The JSON size the store counts, from the record itself. */
const bytesOf = (value: StoredResponse): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

function fakeClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('memory response store bounds', () => {
  it('keeps at most maxResponses, dropping the least recently used (a read counts as a use)', async () => {
    const store = memoryResponseStore({ maxResponses: 3 });
    for (const id of ['r1', 'r2', 'r3']) await store.put(record(id));
    // r1 read: r2 is now the least recently used; getItem counts too (r3 over r2).
    expect(await store.get('alice', 'r1')).toBeDefined();
    expect(await store.getItem('alice', 'msg_out_r3')).toBeDefined();
    await store.put(record('r4'));
    expect(await store.get('alice', 'r2')).toBeUndefined();
    expect(await store.getItem('alice', 'msg_in_r2')).toBeUndefined();
    for (const id of ['r1', 'r3', 'r4']) expect(await store.get('alice', id)).toBeDefined();
    await store.put(record('r5'));
    expect(await store.get('alice', 'r1')).toBeUndefined();
    for (const id of ['r3', 'r4', 'r5']) expect(await store.get('alice', id)).toBeDefined();
  });

  it('keeps at most maxBytes of JSON (UTF-8), dropping the least recently used', async () => {
    // Multibyte text: counting UTF-16 units instead of bytes would keep all three.
    const records = ['r1', 'r2', 'r3'].map((id) => record(id, `é€😀 ${id} `.repeat(20)));
    const [a, b, c] = records.map(bytesOf) as [number, number, number];
    const store = memoryResponseStore({ maxBytes: a + b + c - 1 });
    for (const value of records) await store.put(value);
    expect(await store.get('alice', 'r1')).toBeUndefined();
    expect(await store.get('alice', 'r2')).toBeDefined();
    expect(await store.get('alice', 'r3')).toBeDefined();

    // Exactly at the bound: nothing more goes.
    const exact = memoryResponseStore({ maxBytes: a + b + c });
    for (const value of records) await exact.put(value);
    for (const id of ['r1', 'r2', 'r3']) expect(await exact.get('alice', id)).toBeDefined();
  });

  it('frees the bytes of a replaced or deleted response', async () => {
    const size = bytesOf(record('r1'));
    const store = memoryResponseStore({ maxBytes: size * 2 });
    await store.put(record('r1'));
    await store.put(record('r1'));
    await store.put(record('r1'));
    await store.put(record('r2'));
    expect(await store.get('alice', 'r1')).toBeDefined();
    await store.delete('alice', 'r2');
    await store.put(record('r3'));
    expect(await store.get('alice', 'r1')).toBeDefined();
    expect(await store.get('alice', 'r3')).toBeDefined();
  });

  it('does not store a record larger than maxBytes (put resolves, get misses) and keeps the others', async () => {
    const small = record('small');
    const big = record('big', 'x'.repeat(10_000));
    const store = memoryResponseStore({ maxBytes: bytesOf(small) + 100 });
    await store.put(small);
    await expect(store.put(big)).resolves.toBeUndefined();
    expect(await store.get('alice', 'big')).toBeUndefined();
    expect(await store.getItem('alice', 'msg_in_big')).toBeUndefined();
    expect(await store.get('alice', 'small')).toBeDefined();
    // Replaced by a version too large: the old one is gone as well.
    await store.put(record('small', 'y'.repeat(10_000)));
    expect(await store.get('alice', 'small')).toBeUndefined();
  });

  it('expires a response ttlMs after its put, for get and getItem; reads do not extend it', async () => {
    const clock = fakeClock();
    const store = memoryResponseStore({ ttlMs: HOUR, now: clock.now });
    await store.put(record('r1'));
    clock.advance(HOUR - 1);
    expect(await store.get('alice', 'r1')).toBeDefined();
    expect(await store.getItem('alice', 'msg_out_r1')).toBeDefined();
    clock.advance(1);
    expect(await store.getItem('alice', 'msg_out_r1')).toBeUndefined();
    expect(await store.get('alice', 'r1')).toBeUndefined();
    expect(await store.delete('alice', 'r1')).toBe(false);
  });

  it('a put again starts the TTL anew', async () => {
    const clock = fakeClock();
    const store = memoryResponseStore({ ttlMs: HOUR, now: clock.now });
    await store.put(record('r1'));
    clock.advance(HOUR / 2);
    await store.put(record('r1'));
    clock.advance(HOUR / 2 + 1);
    expect(await store.get('alice', 'r1')).toBeDefined();
    clock.advance(HOUR / 2);
    expect(await store.get('alice', 'r1')).toBeUndefined();
  });

  it('defaults to a 24-hour TTL', async () => {
    const clock = fakeClock();
    const store = memoryResponseStore({ now: clock.now });
    await store.put(record('r1'));
    clock.advance(24 * HOUR - 1);
    expect(await store.get('alice', 'r1')).toBeDefined();
    clock.advance(1);
    expect(await store.get('alice', 'r1')).toBeUndefined();
  });

  it('an item of an expired response resolves from a live response that holds it', async () => {
    const clock = fakeClock();
    const store = memoryResponseStore({ ttlMs: HOUR, now: clock.now });
    const first = message('msg_1', 'Hi');
    await store.put(storedResponse({ id: 'r1', owner: 'alice', input: [first], output: [] }));
    clock.advance(HOUR / 2);
    await store.put(storedResponse({ id: 'r2', owner: 'alice', input: [first, message('msg_2', 'Again')], output: [] }));
    clock.advance(HOUR / 2);
    expect(await store.get('alice', 'r1')).toBeUndefined();
    expect(await store.getItem('alice', 'msg_1')).toEqual(first);
    clock.advance(HOUR / 2);
    expect(await store.getItem('alice', 'msg_1')).toBeUndefined();
  });

  it('a write drops expired responses, so they do not count against maxResponses', async () => {
    const clock = fakeClock();
    const store = memoryResponseStore({ ttlMs: HOUR, maxResponses: 2, now: clock.now });
    await store.put(record('old'));
    clock.advance(HOUR / 2);
    await store.put(record('live'));
    // `old` is now the most recently used, `live` the least.
    expect(await store.get('alice', 'old')).toBeDefined();
    clock.advance(HOUR / 2);
    // `old` has expired: the write drops it, and `live` stays although it is the least recently used.
    await store.put(record('new'));
    expect(await store.get('alice', 'live')).toBeDefined();
    expect(await store.get('alice', 'new')).toBeDefined();
  });

  it('an item id found in both the input and the output resolves to the output item', async () => {
    const store = memoryResponseStore();
    await store.put(storedResponse({ id: 'r1', owner: 'alice', input: [message('msg_x', 'in')], output: [message('msg_x', 'out', 'assistant')] }));
    expect(await store.getItem('alice', 'msg_x')).toEqual(message('msg_x', 'out', 'assistant'));
  });
});

describe('memoryResponseStore options', () => {
  it.each([
    [{ maxResponses: 0 }, 'maxResponses'],
    [{ maxBytes: -1 }, 'maxBytes'],
    [{ ttlMs: Number.NaN }, 'ttlMs'],
    [{ ttlMs: '1h' }, 'ttlMs'],
    [{ now: 5 }, 'now'],
    [{ maxResponse: 10 }, 'maxResponses'],
  ])('refuses %j naming %s', (options, name) => {
    let thrown: unknown;
    try {
      memoryResponseStore(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayConfigError(thrown)).toBe(true);
    expect((thrown as Error).message).toContain('memoryResponseStore');
    expect((thrown as Error).message).toContain(name);
  });
});
