/**
 * The in-memory response store shared between owners and holding
 * conversations: one owner filling it drops its own responses, not
 * another's; a conversation keeps each item once, and continuing it keeps
 * its earlier turns alive.
 */
import { memoryResponseStore, type StoredResponse } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { conversation, message, storedResponse } from '../../helpers/response-store-contract.js';

function record(owner: string, id: string, text = `text of ${id}`): StoredResponse {
  return storedResponse({ id, owner, input: [message(`msg_in_${id}`, text)], output: [] });
}

const bytesOf = (value: StoredResponse): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

async function kept(store: ReturnType<typeof memoryResponseStore>, owner: string, ids: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const id of ids) if (await store.get(owner, id)) found.push(id);
  return found;
}

describe('memory response store: one owner cannot push out another', () => {
  it('Alice filling the store by count drops only her own responses; Bob keeps all of his', async () => {
    const store = memoryResponseStore({ maxResponses: 10 });
    const bobs = ['b1', 'b2', 'b3'];
    for (const id of bobs) await store.put(record('bob', id));
    const alices = Array.from({ length: 50 }, (_, i) => `a${i}`);
    for (const id of alices) await store.put(record('alice', id));
    expect(await kept(store, 'bob', bobs)).toEqual(bobs);
    // The store is full: Alice keeps the rest, her most recent ones.
    expect(await kept(store, 'alice', alices)).toEqual(alices.slice(-7));
  });

  it('Alice filling the store by bytes drops only her own responses; Bob keeps all of his', async () => {
    const size = bytesOf(record('alice', 'a00', 'x'.repeat(1_000)));
    const store = memoryResponseStore({ maxBytes: 10 * size });
    const bobs = ['b01', 'b02'];
    for (const id of bobs) await store.put(record('bob', id, 'y'.repeat(1_000)));
    const alices = Array.from({ length: 40 }, (_, i) => `a${String(i).padStart(2, '0')}`);
    for (const id of alices) await store.put(record('alice', id, 'x'.repeat(1_000)));
    expect(await kept(store, 'bob', bobs)).toEqual(bobs);
    expect(await kept(store, 'alice', alices)).toEqual(alices.slice(-8));
  });

  it('the owner holding the most loses its least recently used first, whoever writes', async () => {
    const store = memoryResponseStore({ maxResponses: 6 });
    // Alice's a1 is the store's least recently used, but Bob holds the most.
    await store.put(record('alice', 'a1'));
    for (const id of ['b1', 'b2', 'b3', 'b4', 'b5']) await store.put(record('bob', id));
    // b1 read: b2 is Bob's least recently used.
    expect(await store.get('bob', 'b1')).toBeDefined();
    // Alice's write passes the bound; Bob holds the most, so Bob's least recently used goes.
    await store.put(record('alice', 'a2'));
    expect(await kept(store, 'bob', ['b1', 'b2', 'b3', 'b4', 'b5'])).toEqual(['b1', 'b3', 'b4', 'b5']);
    expect(await kept(store, 'alice', ['a1', 'a2'])).toEqual(['a1', 'a2']);
    // Three owners: Carol's writes take from the largest (Bob) until nobody holds more than the others.
    for (const id of ['c1', 'c2']) await store.put(record('carol', id));
    expect(await kept(store, 'bob', ['b1', 'b3', 'b4', 'b5'])).toEqual(['b4', 'b5']);
    expect(await kept(store, 'alice', ['a1', 'a2'])).toEqual(['a1', 'a2']);
    expect(await kept(store, 'carol', ['c1', 'c2'])).toEqual(['c1', 'c2']);
  });

  it('an owner whose responses were all evicted, deleted or expired leaves the ranking', async () => {
    const store = memoryResponseStore({ maxResponses: 4 });
    for (const id of ['a1', 'a2', 'a3']) await store.put(record('alice', id));
    for (const id of ['a1', 'a2', 'a3']) expect(await store.delete('alice', id)).toBe(true);
    for (const id of ['b1', 'b2', 'b3', 'b4', 'b5']) await store.put(record('bob', id));
    expect(await kept(store, 'bob', ['b1', 'b2', 'b3', 'b4', 'b5'])).toEqual(['b2', 'b3', 'b4', 'b5']);
  });
});

describe('memory response store: conversations', () => {
  it('a conversation of N turns takes bytes linear in N: 40 turns of 1 KB fit in 60 KB', async () => {
    // Kept whole, turn n would repeat n-1 earlier turns: 40 turns would take ~40² / 2 KB = 800 KB.
    const turns = conversation(40, { text: (turn) => `${turn} `.padEnd(1_000, '.') });
    const store = memoryResponseStore({ maxBytes: 60_000 });
    for (const turn of turns) await store.put(turn);
    expect(await store.get('alice', 'resp_t40')).toEqual(turns.at(-1));
    expect(await store.get('alice', 'resp_t1')).toEqual(turns[0]);
  });

  it('continuing a conversation renews its earlier turns: they expire ttlMs after the latest turn', async () => {
    let now = 1_000_000;
    const hour = 3_600_000;
    const store = memoryResponseStore({ ttlMs: hour, now: () => now });
    const [first, second, third] = conversation(3) as [StoredResponse, StoredResponse, StoredResponse];
    await store.put(first);
    now += 0.75 * hour;
    await store.put(second);
    now += 0.75 * hour;
    // 1.5 h after turn 1: kept alive by turn 2.
    expect(await store.get('alice', 'resp_t2')).toEqual(second);
    await store.put(third);
    now += 0.75 * hour;
    expect(await store.get('alice', 'resp_t3')).toEqual(third);
    expect(await store.getItem('alice', 'msg_q1')).toEqual(message('msg_q1', 'question 1'));
    now += 0.25 * hour;
    expect(await store.get('alice', 'resp_t3')).toBeUndefined();
    expect(await store.get('alice', 'resp_t1')).toBeUndefined();
  });

  it('a conversation whose first turn was evicted reads as missing from there on', async () => {
    const store = memoryResponseStore({ maxResponses: 3 });
    const turns = conversation(2);
    for (const turn of turns) await store.put(turn);
    // Alice's other writes push out her least recently used: the conversation's first turn.
    await store.put(record('alice', 'other1'));
    expect(await store.get('alice', 'other1')).toBeDefined();
    await store.put(record('alice', 'other2'));
    expect(await store.get('alice', 'resp_t1')).toBeUndefined();
    expect(await store.get('alice', 'resp_t2')).toBeUndefined();
  });
});
