import { afterEach, describe, expect, it } from 'vitest';
import { forwardHeaders } from '../../../src/upstreams/forward-headers.js';
import { messagesUpstream } from '../../../src/upstreams/messages-upstream.js';
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
  operation: 'messages',
  headers: {},
  signal: new AbortController().signal,
  ...over,
});

async function send(target: Upstream, c: UpstreamCall): Promise<number> {
  const response = await target.send(c);
  await readBody(response.body);
  return response.status;
}

describe('messagesUpstream', () => {
  it('posts /v1/messages with its own x-api-key and the default anthropic-version', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: { type: 'message' } }]);
    upstream = messagesUpstream({ baseURL: stub.url, apiKey: 'sk-ant-gateway', name: 'vendor' });
    const incoming = { authorization: 'Bearer sk-caller', 'x-api-key': 'sk-caller', 'x-stainless-os': 'Linux', host: 'gw' };
    expect(await send(upstream, call({ body: { model: 'm', max_tokens: 5, messages: [] }, headers: forwardHeaders(incoming) }))).toBe(200);
    const request = stub.requests[0];
    expect(`${request?.method} ${request?.url}`).toBe('POST /v1/messages');
    expect(request?.headers['x-api-key']).toBe('sk-ant-gateway');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.headers['x-stainless-os']).toBeUndefined();
    expect(JSON.stringify(request?.headers)).not.toContain('sk-caller');
    expect(upstream.format).toBe('messages');
  });

  it("forwards the caller's anthropic-version and anthropic-beta, and honours a configured default version", async () => {
    stub = await startStubUpstream([{ kind: 'json', body: {} }]);
    upstream = messagesUpstream({ baseURL: stub.url, apiKey: 'k', version: '2026-10-21' });
    await send(upstream, call({ headers: forwardHeaders({ 'anthropic-version': '2023-06-01', 'anthropic-beta': ['a-1', 'b-2'] }) }));
    await send(upstream, call({ headers: {} }));
    expect(stub.requests[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(stub.requests[0]?.headers['anthropic-beta']).toBe('a-1, b-2');
    expect(stub.requests[1]?.headers['anthropic-version']).toBe('2026-10-21');
  });

  it('sends the caller key as x-api-key only on passthrough, and even then strips caller auth headers', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: {} }]);
    upstream = messagesUpstream({ baseURL: stub.url, apiKey: 'sk-ant-gateway' });
    await send(upstream, call({ callerKey: 'sk-ant-caller', headers: { authorization: 'Bearer leaked' } }));
    expect(stub.requests[0]?.headers['x-api-key']).toBe('sk-ant-caller');
    expect(stub.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('maps every operation to its path, with query and the files beta merged into caller betas', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: {} }]);
    upstream = messagesUpstream({ baseURL: `${stub.url}/`, apiKey: 'k' });
    const beta = { 'anthropic-beta': 'tools-2024' };
    await send(upstream, call({ operation: 'messages.count_tokens', body: { model: 'm', messages: [] } }));
    await send(upstream, call({ operation: 'models.list', query: { limit: '5', after_id: 'x' } }));
    await send(upstream, call({ operation: 'models.retrieve', id: 'vendora-opus-5' }));
    await send(upstream, call({ operation: 'files.list', query: { beta: 'true' }, headers: beta }));
    await send(upstream, call({ operation: 'files.retrieve', id: 'file_1', headers: { 'anthropic-beta': 'files-api-2025-04-14' } }));
    await send(upstream, call({ operation: 'files.content', id: 'file_1' }));
    await send(upstream, call({ operation: 'files.delete', id: 'file_1' }));
    expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /v1/messages/count_tokens',
      'GET /v1/models?limit=5&after_id=x',
      'GET /v1/models/vendora-opus-5',
      'GET /v1/files?beta=true',
      'GET /v1/files/file_1',
      'GET /v1/files/file_1/content',
      'DELETE /v1/files/file_1',
    ]);
    expect(stub.requests[3]?.headers['anthropic-beta']).toBe('tools-2024,files-api-2025-04-14');
    expect(stub.requests[4]?.headers['anthropic-beta']).toBe('files-api-2025-04-14');
    expect(stub.requests[5]?.headers['anthropic-beta']).toBe('files-api-2025-04-14');
    expect(stub.requests[0]?.headers['anthropic-beta']).toBeUndefined();
  });

  it('keeps a path prefix of the base URL', async () => {
    stub = await startStubUpstream([{ kind: 'json', body: {} }]);
    upstream = messagesUpstream({ baseURL: `${stub.url}/tenant-a` });
    await send(upstream, call({ body: {} }));
    expect(stub.requests[0]?.url).toBe('/tenant-a/v1/messages');
    expect(stub.requests[0]?.headers['x-api-key']).toBeUndefined();
  });
});
