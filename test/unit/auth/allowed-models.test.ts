import { describe, expect, it } from 'vitest';
import { isModelAllowed } from '../../../src/auth/allowed-models.js';

describe('isModelAllowed', () => {
  it('a key without allowedModels may use every model', () => {
    expect(isModelAllowed({ id: 'a' }, 'anything')).toBe(true);
    expect(isModelAllowed(undefined, 'anything')).toBe(true);
  });

  it('a key with allowedModels may use only the ids it names', () => {
    const principal = { id: 'b', allowedModels: ['llama-3.1-8b'] };
    expect(isModelAllowed(principal, 'llama-3.1-8b')).toBe(true);
    expect(isModelAllowed(principal, 'llama-3.1-70b')).toBe(false);
    expect(isModelAllowed({ id: 'c', allowedModels: [] }, 'llama-3.1-8b')).toBe(false);
  });
});
