/**
 * The Redis response store on a real Redis: the shared contract through
 * both supported clients (ioredis, node-redis), then what only a shared
 * store does: instances see each other's writes as soon as `put` resolves,
 * keys expire in Redis, and the keys and values are what the docs say.
 */
import { isGatewayError, redisResponseStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_BOUNDS } from '../../src/bounds/request-bounds-options.js';
import { resolveInput } from '../../src/responses/resolve-input.js';
import { useRedisClients } from '../helpers/redis-clients.js';
import { describeResponseStoreContract, message, storedResponse } from '../helpers/response-store-contract.js';

const redis = useRedisClients();
let run = 0;

describeResponseStoreContract('redis via ioredis', () => redisResponseStore({ client: redis.io, prefix: `contract${++run}:` }));
describeResponseStoreContract('redis via node-redis', () => redisResponseStore({ client: redis.node, prefix: `contract${++run}:` }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('redis response store shared by instances', () => {
  it('two instances on one Redis (one client of each kind) see each other’s writes and deletes', async () => {
    const one = redisResponseStore({ client: redis.io, prefix: 'shared:' });
    const two = redisResponseStore({ client: redis.node, prefix: 'shared:' });
    const record = storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [message('msg_out', 'Yo', 'assistant')] });
    await one.put(record);
    expect(await two.get('alice', 'resp_1')).toEqual(record);
    expect(await two.getItem('alice', 'msg_out')).toEqual(message('msg_out', 'Yo', 'assistant'));
    expect(await two.get('bob', 'resp_1')).toBeUndefined();

    await two.put(storedResponse({ id: 'resp_2', owner: 'alice', input: [message('msg_in', 'Hi'), message('msg_out', 'Yo', 'assistant')], output: [] }));
    expect(await two.delete('alice', 'resp_1')).toBe(true);
    expect(await one.get('alice', 'resp_1')).toBeUndefined();
    // Still held by resp_2, written by the other instance.
    expect(await one.getItem('alice', 'msg_out')).toEqual(message('msg_out', 'Yo', 'assistant'));
    expect(await one.delete('alice', 'resp_1')).toBe(false);
  });

  it('a put resolves only once a get on another connection sees it', async () => {
    const writer = redisResponseStore({ client: redis.node, prefix: 'visible:' });
    const reader = redisResponseStore({ client: redis.io, prefix: 'visible:' });
    const ids = Array.from({ length: 100 }, (_, index) => `resp_${index}`);
    const seen = await Promise.all(
      ids.map(async (id) => {
        await writer.put(storedResponse({ id, owner: 'alice', input: [message(`msg_${id}`, id)], output: [] }));
        const [record, item] = await Promise.all([reader.get('alice', id), reader.getItem('alice', `msg_${id}`)]);
        return record?.id === id && item?.id === `msg_${id}`;
      }),
    );
    expect(seen.filter((ok) => !ok)).toEqual([]);
  });

  it('an item resolves to the copy stored last, even among writes within one millisecond', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'order:' });
    // Sent together on one connection: Redis runs them in this order, many within one millisecond.
    await Promise.all(
      Array.from({ length: 30 }, (_, index) => store.put(storedResponse({ id: `resp_${index}`, owner: 'alice', input: [message('msg_x', `version ${index}`)], output: [] }))),
    );
    expect(await store.getItem('alice', 'msg_x')).toEqual(message('msg_x', 'version 29'));
    await Promise.all([
      store.put(storedResponse({ id: 'resp_3', owner: 'alice', input: [message('msg_x', 'version 3 again')], output: [] })),
      store.put(storedResponse({ id: 'resp_2', owner: 'alice', input: [message('msg_x', 'version 2 again')], output: [] })),
    ]);
    expect(await store.getItem('alice', 'msg_x')).toEqual(message('msg_x', 'version 2 again'));
  });

  it('keys expire after ttlMs: the record and its items miss, and nothing is left behind', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'ttl:', ttlMs: 1000 });
    await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [message('msg_out', 'Yo', 'assistant')] }));
    for (const key of ['ttl:resp:{alice}:resp_1', 'ttl:item:{alice}:msg_in', 'ttl:item:{alice}:msg_out']) {
      const pttl = await redis.io.pttl(key);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(1000);
    }
    expect(await store.get('alice', 'resp_1')).toBeDefined();
    await sleep(1100);
    expect(await store.get('alice', 'resp_1')).toBeUndefined();
    expect(await store.getItem('alice', 'msg_in')).toBeUndefined();
    expect(await store.getItem('alice', 'msg_out')).toBeUndefined();
    expect(await redis.io.keys('ttl:*')).toEqual([]);
  });

  it('an item lives as long as the longest-lived response holding it', async () => {
    const short = redisResponseStore({ client: redis.io, prefix: 'mixed:', ttlMs: 300 });
    const long = redisResponseStore({ client: redis.io, prefix: 'mixed:', ttlMs: 60_000 });
    await long.put(storedResponse({ id: 'resp_long', owner: 'alice', input: [message('msg_1', 'Hi')], output: [] }));
    await short.put(storedResponse({ id: 'resp_short', owner: 'alice', input: [message('msg_1', 'Hi')], output: [message('msg_2', 'Yo', 'assistant')] }));
    expect(await redis.io.pttl('mixed:item:{alice}:msg_1')).toBeGreaterThan(50_000);
    await sleep(400);
    expect(await short.get('alice', 'resp_short')).toBeUndefined();
    expect(await short.getItem('alice', 'msg_1')).toEqual(message('msg_1', 'Hi'));
    expect(await short.getItem('alice', 'msg_2')).toBeUndefined();
    // A later write drops the expired response from the item's index.
    await long.put(storedResponse({ id: 'resp_next', owner: 'alice', input: [message('msg_1', 'Hi')], output: [] }));
    expect((await redis.io.zrange('mixed:item:{alice}:msg_1', '0', '-1')).sort()).toEqual(['resp_long', 'resp_next']);
  });

  it('defaults to a 24-hour TTL and the prefix modelgate:responses:', async () => {
    const store = redisResponseStore({ client: redis.node });
    await store.put(storedResponse({ id: 'resp_default', owner: 'alice', input: [message('msg_default', 'Hi')], output: [] }));
    for (const key of ['modelgate:responses:resp:{alice}:resp_default', 'modelgate:responses:item:{alice}:msg_default']) {
      const pttl = await redis.io.pttl(key);
      expect(pttl).toBeGreaterThan(24 * 3_600_000 - 60_000);
      expect(pttl).toBeLessThanOrEqual(24 * 3_600_000);
    }
  });

  it('stores plain JSON under keys whose hash tag is the escaped owner', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'layout:' });
    const record = storedResponse({ id: 'resp_1', owner: 'team:a{1}%', input: [message('msg_in', 'Hi')], output: [message('rs_1', 'thought')] });
    await store.put(record);
    const tag = '{team%3Aa%7B1%7D%25}';
    expect(JSON.parse((await redis.io.get(`layout:resp:${tag}:resp_1`))!)).toEqual(record);
    expect(await redis.io.zrange(`layout:item:${tag}:msg_in`, '0', '-1')).toEqual(['resp_1']);
    expect(await redis.io.zrange(`layout:item:${tag}:rs_1`, '0', '-1')).toEqual(['resp_1']);
    // The owner's bookkeeping: its responses by expiry, their sizes and total (no links: the record continues none).
    const bytes = Buffer.byteLength(JSON.stringify(record));
    expect(await redis.io.zrange(`layout:owner:${tag}`, '0', '-1')).toEqual(['resp_1']);
    expect(await redis.io.hgetall(`layout:sizes:${tag}`)).toEqual({ resp_1: String(bytes) });
    expect(await redis.io.get(`layout:bytes:${tag}`)).toBe(String(bytes));
    expect((await redis.io.keys('layout:*')).sort()).toEqual(
      [`layout:bytes:${tag}`, `layout:item:${tag}:msg_in`, `layout:item:${tag}:rs_1`, `layout:owner:${tag}`, `layout:resp:${tag}:resp_1`, `layout:sizes:${tag}`].sort(),
    );
  });

  it('a record whose stored owner differs from its key reads as missing', async () => {
    const store = redisResponseStore({ client: redis.io, prefix: 'forged:' });
    const forged = storedResponse({ id: 'resp_1', owner: 'mallory', input: [message('msg_in', 'Hi')], output: [] });
    await redis.io.set('forged:resp:{alice}:resp_1', JSON.stringify(forged));
    expect(await store.get('alice', 'resp_1')).toBeUndefined();
  });
});

describe('redis response store: a request\'s items in a batch', () => {
  it('getItems reads every index in one script call and each holding record once, in a second: a chain costs one GET however many of its items are named', async () => {
    const keysPerCall: number[] = [];
    const counted = {
      evalsha: (sha: string, numKeys: number, ...args: string[]) => {
        keysPerCall.push(numKeys);
        return redis.io.evalsha(sha, numKeys, ...args);
      },
      eval: (script: string, numKeys: number, ...args: string[]) => redis.io.eval(script, numKeys, ...args),
    };
    const store = redisResponseStore({ client: counted, prefix: 'batch:' });
    // Twenty turns of one conversation: each record repeats every earlier turn's items, so the last holds all forty.
    const history = [];
    for (let turn = 1; turn <= 20; turn++) {
      const asked = message(`msg_q${turn}`, `question ${turn}`);
      const answered = message(`msg_a${turn}`, `answer ${turn}`, 'assistant');
      await store.put(storedResponse({ id: `resp_${turn}`, owner: 'alice', input: [...history, asked], output: [answered] }));
      history.push(asked, answered);
    }
    const ids = history.map((item) => item.id);
    keysPerCall.length = 0;
    const found = await store.getItems!('alice', [...ids, ...ids]);
    expect([...found.keys()].sort()).toEqual([...ids].sort());
    expect(found.get('msg_q1')).toEqual(message('msg_q1', 'question 1'));
    expect(found.get('msg_a20')).toEqual(message('msg_a20', 'answer 20', 'assistant'));
    // One call with the 40 distinct indexes, one call reading the one record holding them all.
    expect(keysPerCall).toEqual([40, 1]);

    // The last record gone: the earlier turns' items fall back to the turn before, read in one more call; its own turn is gone.
    expect(await store.delete('alice', 'resp_20')).toBe(true);
    keysPerCall.length = 0;
    const after = await store.getItems!('alice', ids);
    expect(after.has('msg_q20')).toBe(false);
    expect(after.has('msg_a20')).toBe(false);
    expect(after.size).toBe(38);
    expect(after.get('msg_a19')).toEqual(message('msg_a19', 'answer 19', 'assistant'));
    expect(keysPerCall).toEqual([40, 1, 1]);
  });
});

describe('redis response store: what a request\'s references make it read', () => {
  /** An ioredis client that adds up the bytes of every string Redis replies with. */
  function measuredClient() {
    const received = { bytes: 0 };
    const measure = (reply: unknown): unknown => {
      const walk = (value: unknown): void => {
        if (typeof value === 'string') received.bytes += Buffer.byteLength(value);
        else if (Array.isArray(value)) value.forEach(walk);
      };
      walk(reply);
      return reply;
    };
    const client = {
      evalsha: async (sha: string, numKeys: number, ...args: string[]) => measure(await redis.io.evalsha(sha, numKeys, ...args)),
      eval: async (script: string, numKeys: number, ...args: string[]) => measure(await redis.io.eval(script, numKeys, ...args)),
    };
    return { client, received };
  }

  /** 200 responses of ~10 KB each, one item apiece: 2 MB of records that one request can name in 200 references. */
  async function manyLargeRecords(prefix: string): Promise<string[]> {
    const writer = redisResponseStore({ client: redis.io, prefix });
    const ids = Array.from({ length: 200 }, (_, i) => `msg_${i}`);
    await Promise.all(ids.map((id, i) => writer.put(storedResponse({ id: `resp_${i}`, owner: 'alice', input: [message(id, 'x'.repeat(10_000))], output: [] }))));
    return ids;
  }

  it('getItems with maxBytes: Redis sends no more record bytes than the budget, and the lookup says it stopped', async () => {
    const ids = await manyLargeRecords('budget:');
    const { client, received } = measuredClient();
    const store = redisResponseStore({ client, prefix: 'budget:' });
    const found = await store.getItems!('alice', ids, { maxBytes: 50_000 });
    expect(found.overBudget).toBe(true);
    expect(found.size).toBeLessThanOrEqual(5);
    // The budget, plus the holder lists (200 response ids of a few bytes each).
    expect(received.bytes).toBeLessThan(50_000 + 200 * 16);

    received.bytes = 0;
    const unbounded = await store.getItems!('alice', ids);
    expect(unbounded.size).toBe(200);
    expect(received.bytes).toBeGreaterThan(2_000_000);
  });

  it('a request naming one item of each of 200 large responses is refused (400) after reading at most maxResolvedInputBytes of them', async () => {
    const ids = await manyLargeRecords('refuse:');
    const { client, received } = measuredClient();
    const store = redisResponseStore({ client, prefix: 'refuse:' });
    const input = ids.map((id) => ({ type: 'item_reference', id }));
    const bounds = { ...DEFAULT_REQUEST_BOUNDS, maxResolvedInputBytes: 50_000 };
    const failure = await resolveInput({ input }, { owner: 'alice', store, bounds }).then(
      () => undefined,
      (error: unknown) => (isGatewayError(error) ? { status: error.status, param: error.param, message: error.message } : error),
    );
    expect(failure).toMatchObject({ status: 400, param: 'input', message: expect.stringContaining('maxResolvedInputBytes') });
    expect(received.bytes).toBeLessThan(50_000 + 200 * 16);
  });
});
