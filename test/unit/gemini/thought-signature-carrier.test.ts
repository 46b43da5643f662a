import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeToolCallId, readToolCallId } from '../../../src/upstreams/gemini/thought-signature-carrier.js';

describe('tool-call ids for Gemini function calls', () => {
  it('start with call_ and hold 16 base64url characters before any signature', () => {
    expect(makeToolCallId({ scope: 'resp-1', index: 0 })).toMatch(/^call_[A-Za-z0-9_-]{16}$/);
  });

  it('are a hash of (scope, index): the same answer gives the same ids', () => {
    // Independent computation of the documented format: sha256 of the JSON pair, base64url, 16 chars.
    const expected = 'call_' + createHash('sha256').update('["resp-1",2]').digest('base64url').slice(0, 16);
    expect(makeToolCallId({ scope: 'resp-1', index: 2 })).toBe(expected);
    expect(makeToolCallId({ scope: 'resp-1', index: 2 })).toBe(makeToolCallId({ scope: 'resp-1', index: 2 }));
  });

  it('differ for parallel calls of one answer and across answers', () => {
    const ids = new Set<string>();
    for (const scope of ['resp-1', 'resp-2']) for (let index = 0; index < 50; index++) ids.add(makeToolCallId({ scope, index }));
    expect(ids.size).toBe(100);
  });

  it('carry a sealed signature that reads back unchanged, dots included', () => {
    const sealed = 'mg2.k1.AbC-_xyz';
    const id = makeToolCallId({ scope: 'resp-1', index: 0, signatureSeal: sealed });
    expect(id.startsWith(makeToolCallId({ scope: 'resp-1', index: 0 }) + '.')).toBe(true);
    expect(readToolCallId(id)).toEqual({ signatureSeal: sealed });
  });

  it('read nothing from ids without a signature or not minted here', () => {
    expect(readToolCallId(makeToolCallId({ scope: 'r', index: 0 }))).toEqual({});
    expect(readToolCallId('call_abc123')).toEqual({});
    expect(readToolCallId('toolu_01.x')).toEqual({});
    expect(readToolCallId('call_short.x')).toEqual({});
    expect(readToolCallId('')).toEqual({});
  });
});
