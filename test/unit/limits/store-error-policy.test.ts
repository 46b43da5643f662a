/**
 * `onStoreError`: one policy for every kind of limit, or one per kind over
 * the defaults (budgets closed, the rest open), and the 503 it answers.
 */
import { describe, expect, it } from 'vitest';
import { closedKinds, resolveStoreErrorPolicy, storeUnavailable } from '../../../src/limits/store-error-policy.js';

describe('resolveStoreErrorPolicy', () => {
  it('defaults: spend budgets closed, request, token and concurrency limits open', () => {
    expect(resolveStoreErrorPolicy(undefined)).toEqual({ requests: 'open', tokens: 'open', concurrent: 'open', budget: 'closed' });
  });

  it('a string sets every kind (the form from before per-kind policies)', () => {
    expect(resolveStoreErrorPolicy('open')).toEqual({ requests: 'open', tokens: 'open', concurrent: 'open', budget: 'open' });
    expect(resolveStoreErrorPolicy('closed')).toEqual({ requests: 'closed', tokens: 'closed', concurrent: 'closed', budget: 'closed' });
  });

  it('an object overrides only the kinds it names', () => {
    expect(resolveStoreErrorPolicy({ tokens: 'closed' })).toEqual({ requests: 'open', tokens: 'closed', concurrent: 'open', budget: 'closed' });
    expect(resolveStoreErrorPolicy({ budget: 'open', requests: undefined })).toEqual({ requests: 'open', tokens: 'open', concurrent: 'open', budget: 'open' });
  });
});

describe('closedKinds', () => {
  it('names each closed kind of a request once, in order', () => {
    const policy = resolveStoreErrorPolicy({ concurrent: 'closed' });
    expect(closedKinds([{ kind: 'requests' }, { kind: 'budget' }, { kind: 'concurrent' }, { kind: 'budget' }], policy)).toEqual(['budget', 'concurrent']);
    expect(closedKinds([{ kind: 'requests' }, { kind: 'tokens' }], policy)).toEqual([]);
  });
});

describe('storeUnavailable', () => {
  it('a 503 with retry-after in whole seconds (at least 1), naming what cannot be checked', () => {
    const error = storeUnavailable(['budget', 'concurrent'], 1500, new Error('down'));
    expect(error.status).toBe(503);
    expect(error.headers['retry-after']).toBe('2');
    expect(error.message).toBe("The limit store is unavailable, so this key's budget and concurrency limit cannot be checked and the request is not admitted; retry in 2 s.");
    expect(storeUnavailable(['budget'], 0, undefined).headers['retry-after']).toBe('1');
  });
});
