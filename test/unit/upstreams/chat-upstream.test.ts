import { afterEach, describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { openAICompatible } from '../../../src/upstreams/chat-upstream.js';
import { readBody } from '../../../src/upstreams/read-body.js';
import type { Upstream, UpstreamCall } from '../../../src/upstreams/upstream.js';
import { type StubUpstream, startStubUpstream } from '../../helpers/stub-upstream.js';

let stub: StubUpstream | undefined;
let upstream: Upstream | undefined;

afterEach(async () => {
  await upstream?.close?.();
  await stub?.close();
  stub = undefined;
  upstream = undefined;
});

const call = (over: Partial<UpstreamCall>): UpstreamCall => ({
  operation: 'chat.completions',
  headers: {},
  signal: new AbortController().signal,
  ...over,
});

const text = async (body: AsyncIterable<Uint8Array>) => new TextDecoder().decode((await readBody(body)).bytes);

describe('openAICompatible', () => {
  it('posts chat completions under the base URL with its own bearer key, never the caller key', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: { id: 'chatcmpl-1' }, headers: { 'x-request-id': 'req_9' } }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-gateway-own', name: 'oai' });
    const response = await upstream.send(
      call({
        body: { model: 'gpt-4o', messages: [] },
        headers: { authorization: 'Bearer sk-caller', 'x-api-key': 'sk-caller2', traceparent: '00-abc-def-01', cookie: 'a=b' },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toBe('req_9');
    expect(JSON.parse(await text(response.body))).toEqual({ id: 'chatcmpl-1' });
    const [request] = stub.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-gateway-own');
    expect(request?.headers['x-api-key']).toBeUndefined();
    expect(request?.headers.cookie).toBeUndefined();
    expect(request?.headers.traceparent).toBe('00-abc-def-01');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(request?.headers)).not.toContain('sk-caller');
    expect(JSON.parse(request?.body ?? '')).toEqual({ model: 'gpt-4o', messages: [] });
    expect(upstream.format).toBe('chat');
    expect(upstream.name).toBe('oai');
  });

  it('sends the exact raw bytes when given, and the caller key only on passthrough', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: {} }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-gateway-own' });
    const raw = new TextEncoder().encode('{ "model" : "x",\n "messages": [] }');
    await text((await upstream.send(call({ rawBody: raw, body: { ignored: true }, callerKey: 'sk-caller' }))).body);
    expect(stub.requests[0]?.body).toBe('{ "model" : "x",\n "messages": [] }');
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer sk-caller');
  });

  it('lists and retrieves models, keeps a base path prefix and base query, and sends no auth without a key', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: { object: 'list', data: [] } }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/proxy/v1/?api-version=2024-10-21`, headers: { 'openai-organization': 'org-1' } });
    await text((await upstream.send(call({ operation: 'models.list' }))).body);
    await text((await upstream.send(call({ operation: 'models.retrieve', id: 'gpt/4o mini' }))).body);
    expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /proxy/v1/models?api-version=2024-10-21',
      'GET /proxy/v1/models/gpt%2F4o%20mini?api-version=2024-10-21',
    ]);
    expect(stub.requests[0]?.headers.authorization).toBeUndefined();
    expect(stub.requests[0]?.headers['openai-organization']).toBe('org-1');
    expect(stub.requests[0]?.headers['content-type']).toBeUndefined();
  });

  it('reuses one keep-alive connection for sequential calls', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: {} }]);
    upstream = openAICompatible({ baseURL: `${stub.url}/v1` });
    for (let i = 0; i < 3; i++) {
      await text((await upstream.send(call({ operation: 'models.list' }))).body);
      // undici frees the socket a tick after the body ends; a call sent in that tick opens a second one.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(stub.requests).toHaveLength(3);
    expect(stub.connections).toBe(1);
  });

  it('rejects operations a chat upstream cannot do, and credentials in the base URL', async () => {
    upstream = openAICompatible({ baseURL: 'http://127.0.0.1:9/v1' });
    await expect(upstream.send(call({ operation: 'messages' }))).rejects.toSatisfy(
      (error: unknown) => isGatewayError(error) && error.code === 'NOT_IMPLEMENTED' && error.status === 501,
    );
    expect(() => openAICompatible({ baseURL: 'https://user:secret@example.com/v1' })).toThrow(/must not contain credentials/);
    expect(() => openAICompatible({ baseURL: 'ftp://example.com' })).toThrow(TypeError);
  });
});
