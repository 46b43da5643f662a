import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { errorHealth, responseHealth } from '../../../src/routing/attempt-health.js';

describe('responseHealth', () => {
  it.each([200, 201, 400, 401, 404, 413])('%i shows a working target', (status) => {
    expect(responseHealth(status, undefined)).toEqual({ kind: 'success' });
  });
  it.each([500, 502, 503, 504, 529])('%i is a failure', (status) => {
    expect(responseHealth(status, undefined)).toEqual({ kind: 'failure' });
    expect(responseHealth(status, 2_000)).toEqual({ kind: 'failure' });
  });
  it('429 with a hint cools for the hint; without one it is a failure', () => {
    expect(responseHealth(429, 2_500)).toEqual({ kind: 'rate_limited', retryAfterMs: 2_500 });
    expect(responseHealth(429, undefined)).toEqual({ kind: 'failure' });
  });
  it('answers no retry can change say nothing: 501, 508, x-should-retry: false', () => {
    expect(responseHealth(501, undefined)).toEqual({ kind: 'neutral' });
    expect(responseHealth(508, undefined)).toEqual({ kind: 'neutral' });
    expect(responseHealth(500, undefined, false)).toEqual({ kind: 'neutral' });
  });
});

describe('errorHealth', () => {
  it('connection errors and time-outs are failures; the client leaving or a gateway bug are not', () => {
    expect(errorHealth(new GatewayError('UPSTREAM_UNAVAILABLE', 'refused'), false)).toEqual({ kind: 'failure' });
    expect(errorHealth(new GatewayError('UPSTREAM_TIMEOUT', 'slow'), false)).toEqual({ kind: 'failure' });
    expect(errorHealth(new GatewayError('UPSTREAM_TIMEOUT', 'deadline'), true)).toEqual({ kind: 'failure' });
    expect(errorHealth(new GatewayError('UPSTREAM_UNAVAILABLE', 'cancelled'), true)).toEqual({ kind: 'neutral' });
    expect(errorHealth(new GatewayError('INTERNAL', 'bug'), false)).toEqual({ kind: 'neutral' });
  });
});
