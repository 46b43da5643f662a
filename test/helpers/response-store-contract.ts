/**
 * What every ResponseStore does (src/responses/response-store.ts), run on
 * the in-memory store (test/unit/responses/memory-response-store.test.ts)
 * and on a real Redis through both supported clients
 * (test/integration/response-store.redis.test.ts). `make` returns a fresh,
 * empty store each call.
 */
import type { ResponseItem, ResponseStore, StoredResponse } from 'modelgate';
import { describe, expect, it } from 'vitest';

export function message(id: string, text: string, role: 'user' | 'assistant' = 'user'): ResponseItem {
  const content = role === 'user' ? [{ type: 'input_text', text }] : [{ type: 'output_text', text, annotations: [] }];
  return { id, type: 'message', role, status: 'completed', content };
}

/** A stored response: `input` items in, `output` items out, as the handler would store it. */
export function storedResponse(options: { id: string; owner: string; input: ResponseItem[]; output: ResponseItem[]; createdAt?: number }): StoredResponse {
  const createdAt = options.createdAt ?? 1_764_000_000;
  return {
    id: options.id,
    owner: options.owner,
    createdAt,
    input: options.input,
    response: { id: options.id, object: 'response', created_at: createdAt, status: 'completed', model: 'gpt-4o', output: options.output },
  };
}

/**
 * `turns` responses of one conversation, as the gateway stores them: each
 * continues the one before (`previous`), its input the earlier turns'
 * items then its own question.
 */
export function conversation(turns: number, options: { owner?: string; prefix?: string; text?: (turn: number) => string } = {}): StoredResponse[] {
  const owner = options.owner ?? 'alice';
  const prefix = options.prefix ?? 'resp_t';
  const history: ResponseItem[] = [];
  const records: StoredResponse[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const asked = message(`msg_q${turn}`, options.text?.(turn) ?? `question ${turn}`);
    const answered = message(`msg_a${turn}`, `answer ${turn}`, 'assistant');
    const record = storedResponse({ id: `${prefix}${turn}`, owner, input: [...history, asked], output: [answered] });
    if (turn > 1) record.previous = { id: `${prefix}${turn - 1}`, items: history.length };
    records.push(record);
    history.push(asked, answered);
  }
  return records;
}

export function describeResponseStoreContract(name: string, make: () => ResponseStore): void {
  describe(`${name} response store`, () => {
    it('reads back what was put; an unknown id misses', async () => {
      const store = make();
      const record = storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [message('msg_out', 'Hello', 'assistant')] });
      const expected = structuredClone(record);
      await store.put(record);
      expect(await store.get('alice', 'resp_1')).toEqual(expected);
      expect(await store.get('alice', 'resp_2')).toBeUndefined();
    });

    it('finds input and output items by id, including reasoning and function-call items', async () => {
      const store = make();
      const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking' }], encrypted_content: 'mg1.abc' };
      const call = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}', status: 'completed' };
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [reasoning, call] }));
      expect(await store.getItem('alice', 'msg_in')).toEqual(message('msg_in', 'Hi'));
      expect(await store.getItem('alice', 'rs_1')).toEqual(reasoning);
      expect(await store.getItem('alice', 'fc_1')).toEqual(call);
      expect(await store.getItem('alice', 'msg_other')).toBeUndefined();
    });

    it("scopes every read to the owner: another owner's ids read as missing and cannot be deleted", async () => {
      const store = make();
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [message('msg_out', 'Yo', 'assistant')] }));
      expect(await store.get('bob', 'resp_1')).toBeUndefined();
      expect(await store.getItem('bob', 'msg_in')).toBeUndefined();
      expect(await store.getItem('bob', 'msg_out')).toBeUndefined();
      expect(await store.delete('bob', 'resp_1')).toBe(false);
      expect(await store.get('alice', 'resp_1')).toBeDefined();
      expect(await store.getItem('alice', 'msg_out')).toBeDefined();
    });

    it('keeps owners apart when their ids are alike, whatever characters the owner holds', async () => {
      const store = make();
      // Pairs that would share keys if owner and id were joined naively: in a hash tag `{owner}:id`, or with ':'.
      const pairs = [
        { first: { owner: 'a}:x', id: 'r', item: 'y' }, second: { owner: 'a', id: 'x}:r', item: 'x}:y' } },
        { first: { owner: 'a:b', id: 'c', item: 'm' }, second: { owner: 'a', id: 'b:c', item: 'b:m' } },
      ];
      for (const { first, second } of pairs) {
        for (const side of [first, second]) {
          await store.put(storedResponse({ id: side.id, owner: side.owner, input: [message(side.item, `from ${side.owner}`)], output: [] }));
        }
      }
      for (const { first, second } of pairs) {
        for (const side of [first, second]) {
          expect((await store.get(side.owner, side.id))?.owner).toBe(side.owner);
          expect(await store.getItem(side.owner, side.item)).toEqual(message(side.item, `from ${side.owner}`));
        }
        expect(await store.getItem(second.owner, first.item)).toBeUndefined();
        expect(await store.get(second.owner, first.id)).toBeUndefined();
      }
    });

    it('delete removes the response and its items; a second delete finds nothing', async () => {
      const store = make();
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [message('msg_out', 'Yo', 'assistant')] }));
      await store.put(storedResponse({ id: 'resp_2', owner: 'alice', input: [message('msg_in2', 'Other')], output: [] }));
      expect(await store.delete('alice', 'resp_1')).toBe(true);
      expect(await store.get('alice', 'resp_1')).toBeUndefined();
      expect(await store.getItem('alice', 'msg_in')).toBeUndefined();
      expect(await store.getItem('alice', 'msg_out')).toBeUndefined();
      expect(await store.delete('alice', 'resp_1')).toBe(false);
      // The other response is untouched.
      expect(await store.getItem('alice', 'msg_in2')).toEqual(message('msg_in2', 'Other'));
    });

    it('an item repeated along a chain resolves while any response holding it remains', async () => {
      const store = make();
      const first = message('msg_1', 'What is 2+2?');
      const answer = message('msg_a1', '4', 'assistant');
      const second = message('msg_2', 'And 3+3?');
      // Turn 2 repeats turn 1's input and output in its own input (a previous_response_id chain).
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [first], output: [answer] }));
      await store.put(storedResponse({ id: 'resp_2', owner: 'alice', input: [first, answer, second], output: [message('msg_a2', '6', 'assistant')] }));
      await store.put(storedResponse({ id: 'resp_3', owner: 'alice', input: [first, answer, second], output: [message('msg_a3', 'Six', 'assistant')] }));

      expect(await store.delete('alice', 'resp_3')).toBe(true);
      expect(await store.getItem('alice', 'msg_1')).toEqual(first);
      expect(await store.getItem('alice', 'msg_2')).toEqual(second);
      expect(await store.getItem('alice', 'msg_a3')).toBeUndefined();

      expect(await store.delete('alice', 'resp_1')).toBe(true);
      // Still in resp_2.
      expect(await store.getItem('alice', 'msg_1')).toEqual(first);
      expect(await store.getItem('alice', 'msg_a1')).toEqual(answer);

      expect(await store.delete('alice', 'resp_2')).toBe(true);
      expect(await store.getItem('alice', 'msg_1')).toBeUndefined();
      expect(await store.getItem('alice', 'msg_a1')).toBeUndefined();
      expect(await store.getItem('alice', 'msg_2')).toBeUndefined();
    });

    it('an item id held by several responses resolves to the copy stored last', async () => {
      const store = make();
      const version = (text: string) => message('msg_x', text);
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [version('one')], output: [] }));
      await store.put(storedResponse({ id: 'resp_2', owner: 'alice', input: [version('two')], output: [] }));
      expect(await store.getItem('alice', 'msg_x')).toEqual(version('two'));
      // Written again, resp_1 is now the one stored last.
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [version('three')], output: [] }));
      expect(await store.getItem('alice', 'msg_x')).toEqual(version('three'));
    });

    it('a put of the same id replaces the response; items only the old version had are gone', async () => {
      const store = make();
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [message('msg_old', 'Draft', 'assistant')] }));
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [message('msg_new', 'Final', 'assistant')] }));
      expect((await store.get('alice', 'resp_1'))?.response.output).toEqual([message('msg_new', 'Final', 'assistant')]);
      expect(await store.getItem('alice', 'msg_new')).toEqual(message('msg_new', 'Final', 'assistant'));
      expect(await store.getItem('alice', 'msg_old')).toBeUndefined();
      expect(await store.getItem('alice', 'msg_in')).toEqual(message('msg_in', 'Hi'));
    });

    it('keeps its own copy: changing the object put, or one read back, changes nothing stored', async () => {
      const store = make();
      const record = storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [message('msg_out', 'Yo', 'assistant')] });
      const expected = structuredClone(record);
      await store.put(record);
      record.input[0]!.content = 'changed';
      (record.response.output as ResponseItem[]).push(message('msg_extra', 'extra'));
      record.response.status = 'failed';

      const read = (await store.get('alice', 'resp_1'))!;
      expect(read).toEqual(expected);
      read.input.length = 0;
      read.response.status = 'failed';
      const item = (await store.getItem('alice', 'msg_out'))!;
      item.content = 'changed';

      expect(await store.get('alice', 'resp_1')).toEqual(expected);
      expect(await store.getItem('alice', 'msg_out')).toEqual(message('msg_out', 'Yo', 'assistant'));
      expect(await store.getItem('alice', 'msg_extra')).toBeUndefined();
    });

    it('getItems finds each id as getItem does, once however often it is named; missing and other owners\' ids are absent', async () => {
      const store = make();
      const reasoning = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'mg1.abc' };
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [reasoning, message('msg_out', 'Yo', 'assistant')] }));
      await store.put(storedResponse({ id: 'resp_b', owner: 'bob', input: [message('msg_bob', 'Hey')], output: [] }));
      expect(store.getItems).toBeTypeOf('function');
      const found = await store.getItems!('alice', ['msg_out', 'rs_1', 'msg_out', 'msg_missing', 'msg_bob', 'msg_in']);
      expect([...found.keys()].sort()).toEqual(['msg_in', 'msg_out', 'rs_1']);
      expect(found.get('msg_in')).toEqual(message('msg_in', 'Hi'));
      expect(found.get('msg_out')).toEqual(message('msg_out', 'Yo', 'assistant'));
      expect(found.get('rs_1')).toEqual(reasoning);
      expect((await store.getItems!('alice', [])).size).toBe(0);
      expect([...(await store.getItems!('bob', ['msg_in', 'msg_bob'])).keys()]).toEqual(['msg_bob']);
    });

    it('getItems: the copy stored last; after a delete or a replacement without the item, the next holder\'s copy', async () => {
      const store = make();
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_x', 'one'), message('msg_y', 'y one')], output: [] }));
      await store.put(storedResponse({ id: 'resp_2', owner: 'alice', input: [message('msg_x', 'two'), message('msg_y', 'y two')], output: [] }));
      await store.put(storedResponse({ id: 'resp_3', owner: 'alice', input: [message('msg_x', 'three')], output: [] }));
      let found = await store.getItems!('alice', ['msg_x', 'msg_y']);
      expect(found.get('msg_x')).toEqual(message('msg_x', 'three'));
      expect(found.get('msg_y')).toEqual(message('msg_y', 'y two'));

      expect(await store.delete('alice', 'resp_3')).toBe(true);
      // resp_2 replaced by a version without msg_y: msg_y falls back to resp_1.
      await store.put(storedResponse({ id: 'resp_2', owner: 'alice', input: [message('msg_x', 'two again')], output: [] }));
      found = await store.getItems!('alice', ['msg_y', 'msg_x']);
      expect(found.get('msg_x')).toEqual(message('msg_x', 'two again'));
      expect(found.get('msg_y')).toEqual(message('msg_y', 'y one'));

      expect(await store.delete('alice', 'resp_1')).toBe(true);
      expect(await store.delete('alice', 'resp_2')).toBe(true);
      expect((await store.getItems!('alice', ['msg_x', 'msg_y'])).size).toBe(0);
    });

    it('getItems hands out copies: changing one changes nothing stored', async () => {
      const store = make();
      await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_in', 'Hi')], output: [] }));
      const item = (await store.getItems!('alice', ['msg_in'])).get('msg_in')!;
      item.content = 'changed';
      expect(await store.getItem('alice', 'msg_in')).toEqual(message('msg_in', 'Hi'));
      expect((await store.getItems!('alice', ['msg_in'])).get('msg_in')).toEqual(message('msg_in', 'Hi'));
    });

    it('getItems within maxBytes: stops once the holding records would pass it, each record counted once', async () => {
      const store = make();
      // Ten records of one ~2 KB item each, and a chain record holding five small items.
      for (let i = 0; i < 10; i++) await store.put(storedResponse({ id: `resp_${i}`, owner: 'alice', input: [message(`msg_${i}`, `${i}`.repeat(2_000))], output: [] }));
      const chain = Array.from({ length: 5 }, (_, i) => message(`msg_c${i}`, `turn ${i}`));
      await store.put(storedResponse({ id: 'resp_chain', owner: 'alice', input: chain, output: [] }));
      const recordBytes = async (id: string) => Buffer.byteLength(JSON.stringify(await store.get('alice', id)));
      const one = await recordBytes('resp_0');
      const ids = Array.from({ length: 10 }, (_, i) => `msg_${i}`);

      // Room for three of the ten records: refused, and at most those three found.
      const over = await store.getItems!('alice', ids, { maxBytes: 3 * one + 10 });
      expect(over.overBudget).toBe(true);
      expect(over.size).toBeLessThanOrEqual(3);
      for (const [id, item] of over) expect(item).toEqual(message(id, id.slice(4).repeat(2_000)));

      // Room for all ten (every record is the same size but for its digit): all found, no marker.
      const all = await store.getItems!('alice', ids, { maxBytes: 10 * (one + 10) });
      expect(all.overBudget).toBeFalsy();
      expect(all.size).toBe(10);

      // Five items of one record cost that record once.
      const fromChain = await store.getItems!('alice', chain.map((item) => item.id), { maxBytes: await recordBytes('resp_chain') });
      expect(fromChain.overBudget).toBeFalsy();
      expect([...fromChain.keys()].sort()).toEqual(chain.map((item) => item.id).sort());

      // The first record is read whatever its size (as a previous_response_id reads one); the second is not.
      const first = await store.getItems!('alice', ['msg_0', 'msg_1'], { maxBytes: 10 });
      expect(first.overBudget).toBe(true);
      expect([...first.keys()]).toHaveLength(1);

      // Missing ids read nothing and cost nothing.
      const missing = await store.getItems!('alice', ['msg_none', 'msg_other'], { maxBytes: 0 });
      expect(missing.overBudget).toBeFalsy();
      expect(missing.size).toBe(0);
    });

    it('a response that continues another (previous) reads back whole, and every item of its chain resolves', async () => {
      const store = make();
      const turns = conversation(3);
      for (const record of turns) await store.put(record);
      for (const record of turns) expect(await store.get('alice', record.id)).toEqual(record);
      for (const id of ['msg_q1', 'msg_a1', 'msg_q2', 'msg_a2', 'msg_q3', 'msg_a3']) expect((await store.getItem('alice', id))?.id).toBe(id);
      const found = await store.getItems!('alice', ['msg_q1', 'msg_a2', 'msg_q3']);
      expect([...found.keys()].sort()).toEqual(['msg_a2', 'msg_q1', 'msg_q3']);
      expect(found.get('msg_q1')).toEqual(message('msg_q1', 'question 1'));
      expect(await store.get('bob', 'resp_t3')).toBeUndefined();
    });

    it('a chain whose earlier response was deleted reads as missing after it; the responses before it still read', async () => {
      const store = make();
      const turns = conversation(3);
      for (const record of turns) await store.put(record);
      expect(await store.delete('alice', 'resp_t2')).toBe(true);
      expect(await store.get('alice', 'resp_t3')).toBeUndefined();
      expect(await store.get('alice', 'resp_t1')).toEqual(turns[0]);
    });

    it('a response continuing one that is not stored (or not its owner\'s) is kept whole and reads back as put', async () => {
      const store = make();
      const [first, second] = conversation(2) as [StoredResponse, StoredResponse];
      await store.put({ ...first, owner: 'bob' });
      await store.put(second);
      expect(await store.get('alice', second.id)).toEqual(second);
      expect(await store.getItem('alice', 'msg_q1')).toEqual(message('msg_q1', 'question 1'));
    });

    it('a response continuing a replaced one reads the chain as it is now', async () => {
      const store = make();
      const [first, second] = conversation(2) as [StoredResponse, StoredResponse];
      await store.put(first);
      await store.put(second);
      const replaced = storedResponse({ id: first.id, owner: 'alice', input: [message('msg_q1', 'question 1')], output: [message('msg_a1', 'answer 1 again', 'assistant')] });
      await store.put(replaced);
      const read = await store.get('alice', second.id);
      expect(read?.input.map((item) => item.content)).toEqual([message('msg_q1', 'question 1').content, message('msg_a1', 'answer 1 again', 'assistant').content, message('msg_q2', 'question 2').content]);
    });

    it('stores plain JSON: what JSON cannot hold is not kept', async () => {
      const store = make();
      const record = storedResponse({ id: 'resp_1', owner: 'alice', input: [{ ...message('msg_in', 'Hi'), note: undefined }], output: [] });
      record.response.metadata = { dropped: undefined, kept: 1 };
      await store.put(record);
      const read = (await store.get('alice', 'resp_1'))!;
      expect(read.response.metadata).toStrictEqual({ kept: 1 });
      expect(Object.keys(read.input[0]!)).not.toContain('note');
    });
  });
}
