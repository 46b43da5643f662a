/**
 * The Redis response store on a real Redis, what it adds to the contract:
 * a conversation's storage grows linearly with its turns, continuing it
 * keeps its earlier turns alive, and per-owner quotas (count and bytes)
 * refuse with a 400 that names the option, one owner's quota never
 * touching another's.
 */
import { isGatewayError, redisResponseStore, type ResponseStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { useRedisClients } from '../helpers/redis-clients.js';
import { conversation, message, storedResponse } from '../helpers/response-store-contract.js';

const redis = useRedisClients();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a call threw, as the fields a client sees; undefined when it did not throw. */
async function refusal(call: () => Promise<unknown>): Promise<{ status: number; code: string | null; param: string | null; message: string } | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { status: error.status, code: error.chatCode, param: error.param, message: error.message };
  }
}

/** Bytes Redis uses for every key of `owner` under `prefix` (MEMORY USAGE, summed). */
async function ownerMemory(prefix: string, owner: string): Promise<{ bytes: number; records: number }> {
  const keys = await redis.io.keys(`${prefix}*{${owner}}*`);
  let bytes = 0;
  let records = 0;
  for (const key of keys) {
    bytes += (await redis.io.memory('USAGE', key)) ?? 0;
    if (key.startsWith(`${prefix}resp:`)) records += await redis.io.strlen(key);
  }
  return { bytes, records };
}

describe('redis response store: conversations as links', () => {
  it('the bytes a conversation takes grow linearly with its turns: 2N turns take about twice N turns, not four times', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'linear:' });
    const text = (turn: number) => `${turn} `.padEnd(1_000, '.');
    const turns = 40;
    for (const record of conversation(turns, { owner: 'short', text })) await store.put(record);
    for (const record of conversation(2 * turns, { owner: 'long', text })) await store.put(record);
    const short = await ownerMemory('linear:', 'short');
    const long = await ownerMemory('linear:', 'long');
    // Each record whole, turn n would repeat n-1 turns: the ratio would be about (2N)² / N² = 4.
    expect(long.records / short.records).toBeGreaterThan(1.8);
    expect(long.records / short.records).toBeLessThan(2.2);
    expect(long.bytes / short.bytes).toBeGreaterThan(1.7);
    expect(long.bytes / short.bytes).toBeLessThan(2.3);
    // And the records hold each turn once: 2N turns of ~1 KB questions plus answers and envelopes, not (2N)²/2 KB.
    expect(long.records).toBeLessThan(2 * turns * 1_600);
    // Still read back whole, through either client.
    const whole = conversation(2 * turns, { owner: 'long', text }).at(-1)!;
    expect(await store.get('long', whole.id)).toEqual(whole);
    expect(await redisResponseStore({ client: redis.node, prefix: 'linear:' }).get('long', whole.id)).toEqual(whole);
  });

  it('storing a turn renews the chain before it: records and items live ttlMs from the latest turn', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'renew:', ttlMs: 1_000 });
    const [first, second, third] = conversation(3);
    await store.put(first!);
    await sleep(600);
    await store.put(second!);
    await sleep(600);
    // 1.2 s after the first turn: renewed by the second.
    expect(await store.get('alice', 'resp_t2')).toEqual(second);
    expect(await store.getItem('alice', 'msg_q1')).toEqual(message('msg_q1', 'question 1'));
    await store.put(third!);
    await sleep(600);
    expect(await store.get('alice', 'resp_t3')).toEqual(third);
    expect((await store.getItems!('alice', ['msg_q1', 'msg_a1'])).size).toBe(2);
    await sleep(600);
    expect(await store.get('alice', 'resp_t3')).toBeUndefined();
    expect(await store.getItem('alice', 'msg_q1')).toBeUndefined();
  });

  it('a chain whose link record vanished outside the store (a key evicted by Redis) reads as missing, not cut short', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'vanish:' });
    for (const record of conversation(3)) await store.put(record);
    await redis.io.del('vanish:links:{alice}');
    expect(await store.get('alice', 'resp_t3')).toBeUndefined();
    expect(await store.get('alice', 'resp_t1')).toEqual(conversation(1)[0]);
  });
});

describe('redis response store: bounded lookups', () => {
  it('an item id held by many responses is looked up among its newest 32 holders only', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'holders:' });
    for (let i = 0; i < 40; i++) await store.put(storedResponse({ id: `resp_${i}`, owner: 'alice', input: [message('msg_x', `version ${i}`)], output: [] }));
    expect(await store.getItem('alice', 'msg_x')).toEqual(message('msg_x', 'version 39'));
    for (let i = 8; i < 40; i++) expect(await store.delete('alice', `resp_${i}`)).toBe(true);
    // resp_0..resp_7 still hold it, but a lookup reads no further than the 32 newest entries.
    expect(await store.get('alice', 'resp_7')).toBeDefined();
    expect(await store.getItem('alice', 'msg_x')).toBeUndefined();
    expect((await store.getItems!('alice', ['msg_x'])).size).toBe(0);
  });
});

describe('redis response store: per-owner quotas', () => {
  const record = (owner: string, id: string, text = 'hi') => storedResponse({ id, owner, input: [message(`msg_${id}`, text)], output: [] });

  it('maxResponsesPerOwner: past it, checkRoom and put refuse with a 400 naming the option; other owners are not affected; delete frees a place', async () => {
    const store: ResponseStore = redisResponseStore({ client: redis.io, prefix: 'count:', maxResponsesPerOwner: 3 });
    for (const id of ['r1', 'r2', 'r3']) await store.put(record('alice', id));
    const expected = { status: 400, code: 'response_store_quota_exceeded', param: 'store', message: expect.stringMatching(/maxResponsesPerOwner.*"store": false/) };
    expect(await refusal(() => store.checkRoom!('alice'))).toEqual(expected);
    expect(await refusal(() => store.put(record('alice', 'r4')))).toEqual(expected);
    expect(await store.get('alice', 'r4')).toBeUndefined();
    // Replacing a response she keeps takes no new place.
    expect(await refusal(() => store.put(record('alice', 'r3', 'again')))).toBeUndefined();
    // Bob has his own quota.
    expect(await refusal(() => store.checkRoom!('bob'))).toBeUndefined();
    for (const id of ['r1', 'r2', 'r3']) await store.put(record('bob', id));
    expect(await store.get('bob', 'r3')).toBeDefined();
    expect(await store.delete('alice', 'r1')).toBe(true);
    expect(await refusal(() => store.checkRoom!('alice'))).toBeUndefined();
    await store.put(record('alice', 'r4'));
    expect(await store.get('alice', 'r4')).toBeDefined();
  });

  it('expired responses free their places', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'expiry:', maxResponsesPerOwner: 2, ttlMs: 300 });
    await store.put(record('alice', 'r1'));
    await store.put(record('alice', 'r2'));
    expect(await refusal(() => store.put(record('alice', 'r3')))).toMatchObject({ status: 400 });
    await sleep(400);
    await store.put(record('alice', 'r3'));
    expect(await store.get('alice', 'r3')).toBeDefined();
  });

  it('maxBytesPerOwner: refused once the owner keeps that many bytes (the record crossing the line is kept), and a record larger than the quota is refused', async () => {
    const one = Buffer.byteLength(JSON.stringify(record('alice', 'r1', 'x'.repeat(1_000))));
    const store = redisResponseStore({ client: redis.io, prefix: 'bytes:', maxBytesPerOwner: 2 * one + Math.floor(one / 2) });
    for (const id of ['r1', 'r2', 'r3']) await store.put(record('alice', id, 'x'.repeat(1_000)));
    // r3 crossed the line and is kept; from now on Alice is refused.
    expect(await store.get('alice', 'r3')).toBeDefined();
    const expected = { status: 400, code: 'response_store_quota_exceeded', param: 'store', message: expect.stringContaining('maxBytesPerOwner') };
    expect(await refusal(() => store.checkRoom!('alice'))).toEqual(expected);
    expect(await refusal(() => store.put(record('alice', 'r4')))).toEqual(expected);
    expect(await refusal(() => store.put(record('bob', 'b1', 'y'.repeat(1_000))))).toBeUndefined();
    expect(await refusal(() => store.put(record('bob', 'huge', 'z'.repeat(5 * one))))).toMatchObject({ status: 400, message: expect.stringContaining('"store": false') });
    expect(await store.get('bob', 'huge')).toBeUndefined();
    expect(await store.delete('alice', 'r2')).toBe(true);
    expect(await store.delete('alice', 'r3')).toBe(true);
    expect(await refusal(() => store.checkRoom!('alice'))).toBeUndefined();
  });

  it('many writers at once never take one owner past its count quota', async () => {
    const store = redisResponseStore({ client: redis.node, prefix: 'race:', maxResponsesPerOwner: 5 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => refusal(() => store.put(record('alice', `r${i}`)))));
    expect(results.filter((result) => result === undefined)).toHaveLength(5);
    expect(await redis.io.zcard('race:owner:{alice}')).toBe(5);
  });
});
