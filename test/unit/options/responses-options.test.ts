/**
 * The Responses API's options: `responseStore` and `responses`. Each mistake
 * names its path and the fix; the documented configurations construct.
 */
import { createGateway, type GatewayOptions, memoryResponseStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from './problems-of.js';

const make = (options: Record<string, unknown>) => () => createGateway({ auth: { keys: ['sk-a'] }, ...options } as GatewayOptions);
/** `openssl rand -base64 32` output, as the message suggests. */
const SECRET = 'q3XbT0vJ8kP2mW5sRz7LcY1nA9dF4gH6eU0iO2pQwE8=';
const OLDER_SECRET = '7fK2xN9bQ4mV1cR8tZ3wY6hJ0sL5aD2gE9uI4oP7kW1=';
/** What every refusal of a weak secret says to use instead. */
const SUGGESTION = /give random characters \(e\.g\. `openssl rand -base64 32`\), the same on every instance$/;

describe('Responses options', () => {
  it('constructs with a store, a secret and either built-in tools policy', () => {
    expect(() => make({ responseStore: memoryResponseStore(), responses: { builtInTools: 'reject', reasoningSecret: SECRET } })()).not.toThrow();
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

  it('takes a list of secrets, newest first (rotation)', () => {
    expect(() => make({ responses: { reasoningSecret: [SECRET, OLDER_SECRET] } })()).not.toThrow();
    expect(() => make({ responses: { reasoningSecret: [SECRET] } })()).not.toThrow();
  });

  it('refuses a secret that is long enough but easy to guess, saying what to use', () => {
    const repeated = problemAt(problemsOf(make({ responses: { reasoningSecret: 'x'.repeat(32) } })), 'responses.reasoningSecret');
    expect(repeated).toMatch(/^is easy to guess \(it has only 1 different character\)/);
    expect(repeated).toMatch(SUGGESTION);
    const fewCharacters = problemAt(problemsOf(make({ responses: { reasoningSecret: '0101010110101010011001011001aabb' } })), 'responses.reasoningSecret');
    expect(fewCharacters).toMatch(/^is easy to guess \(it has only 4 different characters\)/);
    const pattern = problemAt(problemsOf(make({ responses: { reasoningSecret: 'Tr0ub4dor&3Tr0ub4dor&3Tr0ub4dor&3' } })), 'responses.reasoningSecret');
    expect(pattern).toMatch(/^is easy to guess \(it repeats a shorter pattern\)/);
    expect(pattern).toMatch(SUGGESTION);
    expect(problemAt(problemsOf(make({ responses: { reasoningSecret: 'short' } })), 'responses.reasoningSecret')).toMatch(SUGGESTION);
  });

  it('names the entry of a list that is wrong: short, weak, unset or repeated; and an empty list', () => {
    const problems = problemsOf(make({ responses: { reasoningSecret: [SECRET, 'short', 'ab'.repeat(20), undefined] } }));
    expect(problemAt(problems, 'responses.reasoningSecret[1]')).toMatch(/^is shorter than 32 characters/);
    expect(problemAt(problems, 'responses.reasoningSecret[2]')).toMatch(/^is easy to guess/);
    expect(problemAt(problems, 'responses.reasoningSecret[3]')).toMatch(/unset environment variable.*leave the entry out/);
    const twice = problemsOf(make({ responses: { reasoningSecret: [SECRET, OLDER_SECRET, SECRET] } }));
    expect(problemAt(twice, 'responses.reasoningSecret[2]')).toBe('is the same secret as entry 0: list each secret once, newest first');
    expect(problemAt(problemsOf(make({ responses: { reasoningSecret: [] } })), 'responses.reasoningSecret')).toMatch(/^is an empty list: give at least one secret/);
    expect(problemAt(problemsOf(make({ responses: { reasoningSecret: 42 } })), 'responses.reasoningSecret')).toMatch(/^must be a secret of 32 random characters or more, or a list of them newest first \(got 42\)/);
  });
});
