/**
 * What the default voice treats as the operator's problem, and that its
 * words never carry a caller's text or a name the operator did not
 * configure.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { classifyFailure, storeFailure } from '../../../src/observability/operational-failure.js';
import { credentialProviderError } from '../../../src/upstreams/credential-provider-error.js';
import { toNetworkError } from '../../../src/upstreams/network-error.js';
import { DEFAULT_UPSTREAM_TIMEOUTS } from '../../../src/upstreams/upstream-transport-options.js';
import { overloadedError } from '../../../src/routing/overloaded.js';
import { storeUnavailable } from '../../../src/limits/store-error-policy.js';
import { clientLeftError } from '../../../src/signals/client-left.js';
import { noRouteError } from '../../../src/routing/routes.js';

const scope = { upstreams: ['local', 'local-backup'] };

function systemError(code: string, message = `connect ${code} 10.0.0.7:8000`): Error {
  return Object.assign(new Error(message), { code });
}

function network(upstream: string, code: string): GatewayError {
  // As undici's fetch reports it: a TypeError whose cause holds the system code.
  const thrown = new TypeError('fetch failed', { cause: systemError(code) });
  return toNetworkError(thrown, { upstream, timeouts: { ...DEFAULT_UPSTREAM_TIMEOUTS }, phase: 'request' });
}

describe('classifyFailure', () => {
  it('an upstream that refuses connections: unreachable, named, with the system code and what to check', () => {
    const failure = classifyFailure(network('local', 'ECONNREFUSED'), scope);
    expect(failure).toMatchObject({ what: 'upstream unreachable (ECONNREFUSED)', where: 'upstream "local"' });
    expect(failure!.check).toMatch(/running.*baseURL/);
  });

  it('never prints the address from the system error', () => {
    const failure = classifyFailure(network('local', 'ECONNREFUSED'), scope)!;
    expect(JSON.stringify(failure)).not.toContain('10.0.0.7');
  });

  it('the longest configured name the message quotes wins', () => {
    expect(classifyFailure(network('local-backup', 'ECONNREFUSED'), scope)?.where).toBe('upstream "local-backup"');
  });

  it('distinct upstreams and distinct codes are distinct keys; the same failure twice is one key', () => {
    const keys = [
      classifyFailure(network('local', 'ECONNREFUSED'), scope)!.key,
      classifyFailure(network('local', 'ECONNREFUSED'), scope)!.key,
      classifyFailure(network('local-backup', 'ECONNREFUSED'), scope)!.key,
      classifyFailure(network('local', 'ENOTFOUND'), scope)!.key,
    ];
    expect(new Set(keys).size).toBe(3);
    expect(keys[0]).toBe(keys[1]);
  });

  it('a time-out is its own kind', () => {
    const failure = classifyFailure(network('local', 'UND_ERR_HEADERS_TIMEOUT'), scope);
    expect(failure?.what).toBe('upstream timed out (UND_ERR_HEADERS_TIMEOUT)');
  });

  it("an upstream refusing the gateway's key (its 401 as the 502's cause) is a credentials failure", () => {
    const upstream401 = new GatewayError('AUTHENTICATION_FAILED', 'Upstream "local" rejected the credentials (HTTP 401).', { status: 401 });
    const error = new GatewayError('UPSTREAM_ERROR', 'Upstream "local" refused the gateway\'s credentials (HTTP 401); the gateway\'s upstream key needs fixing.', { status: 502, cause: upstream401 });
    const failure = classifyFailure(error, scope);
    expect(failure?.what).toBe("upstream refused the gateway's credentials (HTTP 401)");
    expect(failure?.check).toMatch(/apiKey/);
  });

  it('a relayed upstream 503 with a vendor message: named after the route\'s only upstream, without the vendor text', () => {
    const error = new GatewayError('UPSTREAM_ERROR', 'CUDA out of memory while serving "secret prompt"', { status: 503 });
    const failure = classifyFailure(error, { ...scope, routeUpstream: 'local' });
    expect(failure).toMatchObject({ what: 'upstream failed (HTTP 503)', where: 'upstream "local"' });
    expect(JSON.stringify(failure)).not.toMatch(/CUDA|secret prompt/);
  });

  it('an upstream the operator did not configure is never named from a message', () => {
    const error = new GatewayError('UPSTREAM_ERROR', 'Upstream "caller-chosen-name" failed (HTTP 500).', { status: 500 });
    const failure = classifyFailure(error, scope)!;
    expect(failure.where).toBe('upstream');
    expect(JSON.stringify(failure)).not.toContain('caller-chosen-name');
  });

  it('credentials the gateway could not get (Bedrock, Vertex, Entra ID)', () => {
    const failure = classifyFailure(credentialProviderError('local', 'AWS credentials', new Error('no profile')), scope);
    expect(failure).toMatchObject({ what: 'could not get credentials for the upstream', where: 'upstream "local"' });
  });

  it("the limit store's 503 is a store outage, the same key as the store's own failure report", () => {
    const cause = systemError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:6379');
    const failure = classifyFailure(storeUnavailable(['budget'], 1000, cause), scope);
    expect(failure).toMatchObject({ what: 'limit store unavailable (ECONNREFUSED)', where: 'limit store' });
    expect(failure!.key).toBe(storeFailure('limit store', cause).key);
  });

  it('an internal error is reported by code only, never its message', () => {
    const error = new GatewayError('INTERNAL', 'The gateway failed to handle this request.', { cause: new Error('model "my prompt" broke') });
    const failure = classifyFailure(error, scope)!;
    expect(failure.what).toBe('the gateway failed a request (INTERNAL, HTTP 500)');
    expect(JSON.stringify(failure)).not.toContain('my prompt');
  });

  it.each([
    ['a bad request', new GatewayError('INVALID_REQUEST', 'messages.0.content is required')],
    ['a wrong caller key', new GatewayError('AUTHENTICATION_FAILED', 'Invalid API key')],
    ['an unknown model', noRouteError('gpt-nonexistent')],
    ['a caller over its limit', new GatewayError('RATE_LIMITED', 'Rate limit reached')],
    ['a path the gateway does not serve', new GatewayError('NOT_FOUND', 'Unknown path /v1/chat/completion')],
    ['a client that left', clientLeftError()],
    ['the gateway at capacity (chat)', overloadedError('chat', 'over capacity', 1)],
    ['the gateway at capacity (messages)', overloadedError('messages', 'over capacity', 1)],
    ['every target cooling', overloadedError('chat', 'cooling', 1, 'UPSTREAM_COOLING')],
    ['an operation the upstream does not support', new GatewayError('NOT_IMPLEMENTED', 'Upstream "local" does not support messages.count_tokens.')],
  ])('%s is not printed', (_name, error) => {
    expect(classifyFailure(error, scope)).toBeUndefined();
  });

  it.each([
    ['the gateway\'s own unknown-model 404', new GatewayError('MODEL_NOT_FOUND', 'The model `gpt-x` does not exist.')],
    ['a caller over its limit', new GatewayError('RATE_LIMITED', 'Rate limit reached')],
    ['a relayed caller-key 401 (key passthrough)', new GatewayError('AUTHENTICATION_FAILED', 'Invalid API key', { status: 401 })],
  ])('with a routed upstream, %s is still not printed', (_name, error) => {
    expect(classifyFailure(error, { ...scope, routeUpstream: 'local' })).toBeUndefined();
  });

  it('a 404 from an upstream (a baseURL with a wrong path) is printed, naming it and the path to check', () => {
    const fromMessage = classifyFailure(new GatewayError('NOT_FOUND', 'Upstream "local" failed (HTTP 404).', { status: 404 }), scope);
    const fromRoute = classifyFailure(new GatewayError('NOT_FOUND', 'Not Found', { status: 404 }), { ...scope, routeUpstream: 'local' });
    for (const failure of [fromMessage, fromRoute]) {
      expect(failure).toMatchObject({ what: 'upstream answered 404 Not Found', where: 'upstream "local"' });
      expect(failure!.check).toMatch(/baseURL.*\/v1/);
    }
  });
});
