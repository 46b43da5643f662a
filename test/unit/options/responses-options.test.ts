/**
 * The Responses API's options: `responseStore` and `responses`. Each mistake
 * names its path and the fix; the documented configurations construct.
 */
import { createGateway, type GatewayOptions, memoryResponseStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from './problems-of.js';

const make = (options: Record<string, unknown>) => () => createGateway({ auth: { keys: ['sk-a'] }, ...options } as GatewayOptions);

describe('Responses options', () => {
  it('constructs with a store, a secret and either built-in tools policy', () => {
    expect(() => make({ responseStore: memoryResponseStore(), responses: { builtInTools: 'reject', reasoningSecret: 'x'.repeat(32) } })()).not.toThrow();
    expect(() => make({ responses: { builtInTools: 'drop' } })()).not.toThrow();
  });

  it('a response store that is not one names the methods it needs', () => {
    const problems = problemsOf(make({ responseStore: new Map() }));
    expect(problemAt(problems, 'responseStore')).toMatch(/^must be a ResponseStore \(an object with put, get, getItem, delete; e\.g\. `memoryResponseStore\(\)`/);
  });

  it('a short or unset reasoning secret, an unknown policy and an unknown key', () => {
    const problems = problemsOf(make({ responses: { reasoningSecret: 'short', builtInTools: 'ignore', builtinTools: 'drop' } }));
    expect(problemAt(problems, 'responses.reasoningSecret')).toMatch(/^is shorter than 32 characters/);
    expect(problemAt(problems, 'responses.builtInTools')).toMatch(/drop.*reject/);
    expect(problemAt(problems, 'responses.builtinTools')).toBe('is not a `responses` option: did you mean `builtInTools`?');
    expect(problemAt(problemsOf(make({ responses: { reasoningSecret: '' } })), 'responses.reasoningSecret')).toMatch(/unset environment variable/);
  });
});
