import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { errorHealth, movesOnAtOnce, responseHealth, streamHealth } from '../../../src/routing/attempt-health.js';

describe('responseHealth', () => {
  it.each([200, 201, 400, 401, 404, 413])('%i shows a working target', (status) => {
    expect(responseHealth(status, undefined)).toEqual({ kind: 'success' });
  });
  it.each([500, 502, 503, 504, 529])('%i is a failure', (status) => {
    expect(responseHealth(status, undefined)).toEqual({ kind: 'failure' });
  });
  it.each([500, 502, 504, 529])('%i with a retry hint is still a failure', (status) => {
    expect(responseHealth(status, 2_000)).toEqual({ kind: 'failure' });
  });
  it('503 with a hint cools for the hint (the upstream said when to come back)', () => {
    expect(responseHealth(503, 2_000)).toEqual({ kind: 'unavailable', retryAfterMs: 2_000 });
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
  it('an upstream without the endpoint (a 404 for the path) is a failure, and moves on at once', () => {
    const missing = new GatewayError('UPSTREAM_ENDPOINT_MISSING', 'no endpoint');
    expect(errorHealth(missing, false)).toEqual({ kind: 'failure' });
    expect(movesOnAtOnce(missing)).toBe(true);
    expect(movesOnAtOnce(new GatewayError('UPSTREAM_UNAVAILABLE', 'refused'))).toBe(false);
  });
  it('connection errors and time-outs are failures; the client leaving or a gateway bug are not', () => {
    expect(errorHealth(new GatewayError('UPSTREAM_UNAVAILABLE', 'refused'), false)).toEqual({ kind: 'failure' });
    expect(errorHealth(new GatewayError('UPSTREAM_TIMEOUT', 'slow'), false)).toEqual({ kind: 'failure' });
    expect(errorHealth(new GatewayError('UPSTREAM_TIMEOUT', 'deadline'), true)).toEqual({ kind: 'failure' });
    expect(errorHealth(new GatewayError('UPSTREAM_UNAVAILABLE', 'cancelled'), true)).toEqual({ kind: 'neutral' });
    expect(errorHealth(new GatewayError('INTERNAL', 'bug'), false)).toEqual({ kind: 'neutral' });
  });
});

describe('streamHealth', () => {
  it('a stream relayed to its end shows a working target; one whose client left says nothing', () => {
    expect(streamHealth('completed', undefined)).toEqual({ kind: 'success' });
    expect(streamHealth('aborted', undefined)).toEqual({ kind: 'neutral' });
  });
  it('a stream cut, silent past its idle time-out, or ended by an in-band server error is a failure', () => {
    expect(streamHealth('failed', new GatewayError('UPSTREAM_ERROR', 'ended before it was complete'))).toEqual({ kind: 'failure' });
    expect(streamHealth('failed', new GatewayError('UPSTREAM_UNAVAILABLE', 'connection closed'))).toEqual({ kind: 'failure' });
    expect(streamHealth('failed', new GatewayError('UPSTREAM_TIMEOUT', 'idle'))).toEqual({ kind: 'failure' });
    expect(streamHealth('failed', new GatewayError('UPSTREAM_ERROR', 'Overloaded', { status: 529, messagesType: 'overloaded_error' }))).toEqual({ kind: 'failure' });
    expect(streamHealth('failed', new GatewayError('UPSTREAM_ERROR', 'slow down', { status: 429, messagesType: 'rate_limit_error' }))).toEqual({ kind: 'failure' });
  });
  it("an in-band client error or the gateway's own interruption says nothing", () => {
    expect(streamHealth('failed', new GatewayError('UPSTREAM_ERROR', 'bad request', { status: 400, messagesType: 'invalid_request_error' }))).toEqual({ kind: 'neutral' });
    expect(streamHealth('failed', new GatewayError('OVERLOADED', 'shut down'))).toEqual({ kind: 'neutral' });
  });
});
