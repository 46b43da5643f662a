/**
 * `maxObjectKeys`: one object of many keys (a `logit_bias`, a tool call's
 * input, a schema's properties) is refused on its key count, on every
 * interface, before any schema work.
 */
import { describe, expect, it } from 'vitest';
import { checkRequestBounds, DEFAULT_REQUEST_BOUNDS, describeBoundViolation } from 'modelgate';

function objectOf(keys: number): Record<string, number> {
  const object: Record<string, number> = {};
  for (let i = 0; i < keys; i++) object[`k${i}`] = 1;
  return object;
}

describe('maxObjectKeys', () => {
  it('defaults to 10,000 keys', () => {
    expect(DEFAULT_REQUEST_BOUNDS.maxObjectKeys).toBe(10_000);
  });

  it('passes an object at the bound and refuses one key more (chat logit_bias)', () => {
    const body = (keys: number) => ({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], logit_bias: objectOf(keys) });
    expect(checkRequestBounds('chat', body(10_000))).toBeUndefined();
    expect(checkRequestBounds('chat', body(10_001))).toEqual({ path: ['logit_bias'], bound: 'maxObjectKeys', limit: 10_000, found: 10_001 });
  });

  it('refuses a messages tool_use input of many keys, naming where', () => {
    const body = {
      model: 'm',
      max_tokens: 1,
      messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: objectOf(300_000) }] }],
    };
    const violation = checkRequestBounds('messages', body);
    expect(violation).toMatchObject({ path: ['messages', 0, 'content', 0, 'input'], bound: 'maxObjectKeys', found: 300_000 });
    expect(describeBoundViolation(violation!)).toBe(
      'messages.0.content.0.input: an object of 300000 keys; this gateway takes at most 10000 (requestBounds.maxObjectKeys). Send an object with fewer keys.',
    );
  });

  it('refuses a Responses tool schema of many properties, and follows the option', () => {
    const body = { model: 'gpt-5', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: objectOf(50) } }] };
    expect(checkRequestBounds('responses', body)).toBeUndefined();
    expect(checkRequestBounds('responses', body, { maxObjectKeys: 49 })).toMatchObject({ path: ['tools', 0, 'parameters', 'properties'], bound: 'maxObjectKeys', limit: 49, found: 50 });
  });

  it('names the object by its first path segments only, each cut to 64 characters', () => {
    const long = 'x'.repeat(100_000);
    const body = { model: 'gpt-5', input: 'hi', metadata: { [long]: objectOf(20) } };
    const violation = checkRequestBounds('responses', body, { maxObjectKeys: 10 });
    expect(violation?.bound).toBe('maxObjectKeys');
    expect(describeBoundViolation(violation!)).toMatch(/^metadata\.x{64}…: an object of 20 keys;/);
  });
});
