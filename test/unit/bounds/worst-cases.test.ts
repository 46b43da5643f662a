/**
 * The worst bodies cost little to refuse: an over-long array is refused on
 * its length alone (its entries are never read), an over-long string on its
 * length.
 */
import { describe, expect, it } from 'vitest';
import { checkRequestBounds } from 'modelgate';

/** An array of `length` entries that throws when any entry is read. */
function unreadable(length: number): unknown[] {
  return new Proxy(new Array<unknown>(length), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error(`entry ${key} was read`);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe('worst cases', () => {
  it('refuses 1,000,000 messages without reading one', () => {
    expect(checkRequestBounds('chat', { model: 'gpt-5', messages: unreadable(1_000_000) })).toMatchObject({
      path: ['messages'],
      bound: 'maxMessages',
      found: 1_000_000,
    });
  });

  it('refuses 1,000,000 Responses input items and 1,000,000 tools without reading one', () => {
    expect(checkRequestBounds('responses', { model: 'gpt-5', input: unreadable(1_000_000) })).toMatchObject({ bound: 'maxMessages', found: 1_000_000 });
    expect(checkRequestBounds('messages', { model: 'm', tools: unreadable(1_000_000) })).toMatchObject({ bound: 'maxTools', found: 1_000_000 });
  });

  it('refuses 1,000,000 content blocks in one message without reading one', () => {
    const body = { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: unreadable(1_000_000) }] };
    expect(checkRequestBounds('messages', body)).toMatchObject({ path: ['messages', 0, 'content'], bound: 'maxContentParts', found: 1_000_000 });
  });

  it('refuses a 200,000-character model id by its length', () => {
    expect(checkRequestBounds('chat', { model: 'm'.repeat(200_000), messages: unreadable(1) })).toMatchObject({
      path: ['model'],
      bound: 'maxModelLength',
      found: 200_000,
    });
  });

  it('refuses a parsed 2 MB body of 1,000,000 invalid messages', () => {
    const raw = `{"model":"gpt-5","messages":[${Array(1_000_000).fill('1').join(',')}]}`;
    expect(raw.length).toBeGreaterThan(2_000_000);
    expect(checkRequestBounds('chat', JSON.parse(raw))).toMatchObject({ bound: 'maxMessages', found: 1_000_000 });
  });
});
