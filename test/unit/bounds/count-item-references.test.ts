/**
 * The items of a Responses input that need a store lookup: item references,
 * and reasoning sent back by id without its encrypted content.
 */
import { describe, expect, it } from 'vitest';
import { countItemReferences, isStoredItemLookup } from '../../../src/bounds/count-item-references.js';

describe('countItemReferences', () => {
  it('counts item_reference items and reasoning by id alone', () => {
    const input = [
      { role: 'user', content: 'Hi.' },
      { type: 'item_reference', id: 'msg_1' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thought' }] },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: null },
      { type: 'reasoning', id: 'rs_3', summary: [], encrypted_content: 'opaque' },
      { type: 'reasoning', summary: [] },
      { type: 'function_call', id: 'fc_1', call_id: 'c', name: 'f', arguments: '{}' },
      null,
      'text',
    ];
    expect(input.map(isStoredItemLookup)).toEqual([false, true, true, true, false, false, false, false, false]);
    expect(countItemReferences(input)).toBe(3);
  });

  it('an empty id names no stored item: neither an item_reference nor a reasoning item with one is a lookup', () => {
    const input = [
      { type: 'item_reference', id: '' },
      { type: 'reasoning', id: '', summary: [] },
      { type: 'item_reference' },
      { type: 'item_reference', id: 7 },
    ];
    expect(input.map(isStoredItemLookup)).toEqual([false, false, false, false]);
    expect(countItemReferences(input)).toBe(0);
  });

  it('is 0 for a string or missing input', () => {
    expect(countItemReferences('Hi.')).toBe(0);
    expect(countItemReferences(undefined)).toBe(0);
  });
});
