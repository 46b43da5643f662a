/** `allowedModels` entries are matched like a route's `match` string: exact ids and globs. */
import { describe, expect, it } from 'vitest';
import { isModelAllowed } from '../../../src/auth/allowed-models.js';

describe('isModelAllowed', () => {
  it('no principal or no list: every model', () => {
    expect(isModelAllowed(undefined, 'gpt-4o')).toBe(true);
    expect(isModelAllowed({}, 'local-llama')).toBe(true);
  });

  it('an exact id allows that id only', () => {
    const principal = { allowedModels: ['gpt-4o'] };
    expect(isModelAllowed(principal, 'gpt-4o')).toBe(true);
    expect(isModelAllowed(principal, 'gpt-4o-mini')).toBe(false);
    expect(isModelAllowed(principal, 'GPT-4O')).toBe(false);
  });

  it('`*` is any run of characters, over the whole id', () => {
    const principal = { allowedModels: ['local-*'] };
    expect(isModelAllowed(principal, 'local-llama')).toBe(true);
    expect(isModelAllowed(principal, 'local-')).toBe(true);
    expect(isModelAllowed(principal, 'local')).toBe(false);
    expect(isModelAllowed(principal, 'my-local-llama')).toBe(false);
    expect(isModelAllowed(principal, 'gpt-4o')).toBe(false);
  });

  it('`?` is exactly one character', () => {
    const principal = { allowedModels: ['gpt-4?'] };
    expect(isModelAllowed(principal, 'gpt-4o')).toBe(true);
    expect(isModelAllowed(principal, 'gpt-4')).toBe(false);
    expect(isModelAllowed(principal, 'gpt-4o-mini')).toBe(false);
  });

  it('any entry of the list may match; other glob-free characters are literal', () => {
    const principal = { allowedModels: ['vendora-sonnet-4-6', 'local-*', 'gpt-4.1*'] };
    expect(isModelAllowed(principal, 'vendora-sonnet-4-6')).toBe(true);
    expect(isModelAllowed(principal, 'local-qwen')).toBe(true);
    expect(isModelAllowed(principal, 'gpt-4.1-mini')).toBe(true);
    // `.` is a dot, not "any character" as in a regular expression.
    expect(isModelAllowed(principal, 'gpt-4x1')).toBe(false);
    expect(isModelAllowed(principal, 'vendora-opus-5')).toBe(false);
  });

  it('an empty list allows nothing; a new list is read afresh', () => {
    expect(isModelAllowed({ allowedModels: [] }, 'gpt-4o')).toBe(false);
    expect(isModelAllowed({ allowedModels: ['gpt-*'] }, 'gpt-4o')).toBe(true);
    expect(isModelAllowed({ allowedModels: ['local-*'] }, 'gpt-4o')).toBe(false);
  });
});
