/**
 * The HTTP upstreams on a 404: for the endpoint path, a 502 naming the
 * upstream (its base URL only in the cause, for operators); for the model,
 * the upstream's answer as it came.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayError, isGatewayError } from '../../../src/errors.js';
import { openAICompatible } from '../../../src/upstreams/chat-upstream.js';
import { messagesUpstream } from '../../../src/upstreams/messages-upstream.js';
import { EndpointMissingDetail } from '../../../src/upstreams/endpoint-missing.js';
import { readBody } from '../../../src/upstreams/read-body.js';
import { createRedactor } from '../../../src/redact/redactor.js';
import { redactError } from '../../../src/redact/redact-error.js';
import { upstreamAddresses } from '../../../src/redact/upstream-addresses.js';
import type { Upstream, UpstreamCall } from '../../../src/upstreams/upstream.js';
import { type StubReply, type StubUpstream, startStubUpstream } from '../../helpers/stub-upstream.js';

let stub: StubUpstream | undefined;
let upstream: Upstream | undefined;

afterEach(async () => {
  await upstream?.close?.();
  await stub?.close();
  stub = undefined;
  upstream = undefined;
});

const call = (operation: UpstreamCall['operation'], model = 'gpt-4o'): UpstreamCall => ({
  operation,
  body: { model, messages: [] },
  headers: {},
  signal: new AbortController().signal,
});

const expressNotFound: StubReply = {
  kind: 'text',
  status: 404,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<!DOCTYPE html><html><body><pre>Cannot POST /chat/completions</pre></body></html>',
};

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isGatewayError(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('a chat upstream answering 404', () => {
  it('for the path: rejects with a 502 naming the upstream and the missing /v1, the base URL only in the cause', async () => {
    stub = await startStubUpstream([expressNotFound]);
    upstream = openAICompatible({ baseURL: `${stub.url}?tenant=secret-tenant`, apiKey: 'sk-own-key-123456', name: 'local' });
    const error = await rejection(upstream.send(call('chat.completions')));
    expect(error.code).toBe('UPSTREAM_ENDPOINT_MISSING');
    expect(error.status).toBe(502);
    expect(error.message).toContain('Upstream "local" answered 404 for its endpoint path /chat/completions');
    expect(error.message).toContain('missing its version segment (/v1)');
    expect(error.message).not.toContain(stub.url);
    expect(error.cause).toBeInstanceOf(EndpointMissingDetail);
    const detail = error.cause as EndpointMissingDetail;
    expect(detail).toMatchObject({ upstream: 'local', baseURL: stub.url, path: '/chat/completions' });
    expect(detail.message).toContain(stub.url);
    expect(detail.message).not.toContain('secret-tenant');
    expect(stub.requests).toHaveLength(1);
  });

  it('for the path under a versioned base URL: says the path is wrong, not that /v1 is missing', async () => {
    stub = await startStubUpstream([{ kind: 'json', status: 404, body: { detail: 'Not Found' } }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/api/v1`, name: 'local' });
    const error = await rejection(upstream.send(call('chat.completions')));
    expect(error.code).toBe('UPSTREAM_ENDPOINT_MISSING');
    expect(error.message).toContain('has a path this server does not serve /chat/completions under');
    expect((error.cause as EndpointMissingDetail).baseURL).toBe(`${stub.url}/api/v1`);
  });

  it('for the model: resolves with the 404 and its body unchanged', async () => {
    const body = { error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', param: null, code: 'model_not_found' } };
    stub = await startStubUpstream([{ kind: 'json', status: 404, body }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/v1`, name: 'openai' });
    const response = await upstream.send(call('chat.completions', 'gpt-9'));
    expect(response.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode((await readBody(response.body)).bytes))).toEqual(body);
  });

  it('on another operation (a model lookup): the 404 is the answer', async () => {
    stub = await startStubUpstream([{ kind: 'json', status: 404, body: { detail: 'Not Found' } }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/v1`, name: 'openai' });
    const response = await upstream.send({ operation: 'models.retrieve', id: 'gpt-9', headers: {}, signal: new AbortController().signal });
    expect(response.status).toBe(404);
  });
});

describe('a messages upstream answering 404', () => {
  it('for the path: a 502 naming the upstream', async () => {
    stub = await startStubUpstream([{ kind: 'json', status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } } }]);
    upstream = messagesUpstream({ baseURL: `${stub.url}/anthropic`, name: 'vendor' });
    const error = await rejection(upstream.send(call('messages', 'vendora-sonnet-4-6')));
    expect(error.code).toBe('UPSTREAM_ENDPOINT_MISSING');
    expect(error.message).toContain('Upstream "vendor" answered 404 for its endpoint path /v1/messages');
    expect((error.cause as EndpointMissingDetail).baseURL).toBe(`${stub.url}/anthropic`);
  });

  it('for the model: the 404 is the answer', async () => {
    stub = await startStubUpstream([{ kind: 'json', status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'model: vendora-9' } } }]);
    upstream = messagesUpstream({ baseURL: stub.url, name: 'vendor' });
    expect((await upstream.send(call('messages', 'vendora-9'))).status).toBe(404);
  });
});

describe('redaction of the 502', () => {
  it('hides the upstream address from the message callers see, and keeps the base URL in the cause for onError', async () => {
    stub = await startStubUpstream([expressNotFound]);
    // The default name is the host: an address, hidden like any other.
    upstream = openAICompatible({ baseURL: stub.url });
    const error = await rejection(upstream.send(call('chat.completions')));
    const redacted = redactError(error, createRedactor([], upstreamAddresses(stub.url)));
    expect(redacted.message).not.toContain(new URL(stub.url).host);
    expect((redacted.cause as EndpointMissingDetail).baseURL).toBe(stub.url);
  });
});
