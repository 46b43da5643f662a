import { describe, expect, it } from 'vitest';
import { canonicalJson, keepKeyOrder } from '../../../src/cache/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts object keys at every level, arrays keep their order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,1]},"b":1}');
  });

  it('sorts keys by UTF-16 code units, not by locale', () => {
    // 'Z' (0x5a) < 'a' (0x61) < 'é' (0xe9) < '😀' (0xd83d…) < 'ﬀ' (0xfb00)
    expect(canonicalJson({ ﬀ: 5, '😀': 4, é: 3, a: 2, Z: 1 })).toBe('{"Z":1,"a":2,"é":3,"😀":4,"ﬀ":5}');
  });

  it('drops undefined members and prints undefined array items as null, as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, null] })).toBe('{"b":[null,null]}');
  });

  it('prints numbers and strings as JSON prints them', () => {
    expect(canonicalJson([JSON.parse('1.0'), JSON.parse('1e2'), -0, 0.1, 'a"\n\u2028'])).toBe('[1,100,0,0.1,"a\\"\\n\u2028"]');
  });

  it('keeps the key order of everything inside a marked subtree, and only there', () => {
    const schema = { type: 'object', properties: { z: { type: 'string' }, a: { type: 'number' } } };
    expect(canonicalJson({ s: keepKeyOrder(schema), b: { y: 1, x: 2 } })).toBe(
      '{"b":{"x":2,"y":1},"s":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"}}}}',
    );
  });

  it('handles the deepest bodies requestBounds lets through', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i++) deep = { k: deep };
    expect(canonicalJson(deep)).toBe(`${'{"k":'.repeat(200)}"leaf"${'}'.repeat(200)}`);
  });
});
