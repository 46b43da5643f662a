import { describe, expect, it } from 'vitest';
import { BoundedMap, PINNED_SCAN } from '../../../src/bounded-map.js';

const keysOf = <V>(map: BoundedMap<string, V>) => [...map].map(([key]) => key);

describe('BoundedMap', () => {
  it('holds at most maxEntries, dropping the least recently used', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 3 });
    for (let i = 0; i < 1000; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect(keysOf(map)).toEqual(['k997', 'k998', 'k999']);
  });

  it('get makes an entry recent; peek does not', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2 });
    map.set('a', 1).set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect(keysOf(map)).toEqual(['a', 'c']);
    expect(map.peek('a')).toBe(1);
    map.set('d', 4);
    expect(keysOf(map)).toEqual(['c', 'd']);
  });

  it('setting an existing key replaces it without growing', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2 });
    map.set('a', 1).set('b', 2).set('a', 3);
    expect(map.size).toBe(2);
    expect(keysOf(map)).toEqual(['b', 'a']);
    expect(map.heldChars).toBe(2);
  });

  it('holds at most maxChars characters of keys, and never an entry of more than half of them', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 100, maxChars: 10 });
    map.set('aaaa', 1).set('bbbb', 2);
    expect(map.heldChars).toBe(8);
    map.set('cccc', 3);
    expect(keysOf(map)).toEqual(['bbbb', 'cccc']);
    // A huge key is not kept, and drops nothing.
    map.set('x'.repeat(50), 4).set('xxxxxx', 5);
    expect(keysOf(map)).toEqual(['bbbb', 'cccc']);
    expect(map.get('x'.repeat(50))).toBeUndefined();
    map.set('d', 6);
    expect(keysOf(map)).toEqual(['bbbb', 'cccc', 'd']);
  });

  it('keeps its pinned entries when a key longer than all of them arrives', () => {
    const map = new BoundedMap<string, boolean>({ maxEntries: 1_000, maxChars: 1_048_576, isPinned: (pinned) => pinned });
    for (let i = 0; i < 100; i++) map.set(`target-${i}`, true);
    map.set('m'.repeat(1_048_577), false);
    expect(map.size).toBe(100);
  });

  it('counts characters with charsOf', () => {
    const map = new BoundedMap<string, string>({ maxEntries: 100, maxChars: 20, charsOf: (key, value) => key.length + value.length });
    map.set('a', '123456789').set('b', '123456789');
    expect(map.heldChars).toBe(20);
    map.set('c', '1');
    expect(keysOf(map)).toEqual(['b', 'c']);
    expect(map.heldChars).toBe(12);
  });

  it('drops unpinned entries before pinned ones, and pinned ones when nothing else can go', () => {
    const map = new BoundedMap<string, { live: boolean }>({ maxEntries: 3, isPinned: (value) => value.live });
    map.set('p1', { live: true }).set('u1', { live: false }).set('p2', { live: true });
    map.set('n1', { live: false });
    expect(keysOf(map)).toEqual(['p1', 'p2', 'n1']);
    map.set('n2', { live: true });
    expect(keysOf(map)).toEqual(['p1', 'p2', 'n2']);
    map.set('n3', { live: true });
    expect(keysOf(map)).toEqual(['p2', 'n2', 'n3']);
    expect(map.size).toBe(3);
  });

  it('delete and clear keep the character count right', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 10 });
    map.set('abc', 1).set('de', 2);
    expect(map.delete('abc')).toBe(true);
    expect(map.delete('abc')).toBe(false);
    expect(map.heldChars).toBe(2);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.heldChars).toBe(0);
  });
});

describe('BoundedMap with every entry pinned', () => {
  it('drops the least recent, looking past at most PINNED_SCAN pinned entries for an unpinned one', () => {
    const map = new BoundedMap<string, boolean>({ maxEntries: PINNED_SCAN + 2, isPinned: (pinned) => pinned });
    for (let i = 0; i < PINNED_SCAN; i++) map.set(`p${i}`, true);
    map.set('u-near', false).set('p-last', true);
    map.set('new-1', true);
    // The first unpinned entry comes after PINNED_SCAN pinned ones: still found.
    expect(map.has('u-near')).toBe(false);
    expect(map.has('p0')).toBe(true);
    map.set('new-2', true);
    // Nothing unpinned within reach: the least recent goes.
    expect(map.has('p0')).toBe(false);
    expect(map.size).toBe(PINNED_SCAN + 2);
  });
});
