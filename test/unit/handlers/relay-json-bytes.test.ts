/**
 * Relayed (same-format) JSON answers are read whole and checked complete
 * before anything is sent: the client gets the upstream's exact bytes as one
 * `Uint8Array` (announced or not) and `onUsage` one record with the body's
 * usage, or, for an answer that is not one whole JSON object, a clean 502.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { createGateway } from '../../../src/gateway.js';
import { readCompleteJson } from '../../../src/handlers/check-upstream-answer.js';
import type { BytesResponse, GatewayResponse } from '../../../src/types.js';
import type { Upstream, UpstreamCall } from '../../../src/upstreams/upstream.js';
import type { UsageRecord } from '../../../src/usage.js';

const KEY = 'sk-relay-test';

/** A chat answer with odd spacing and key order: any re-serialisation would change these bytes. */
function answerText(padding = 0): string {
  return `{"id":"chatcmpl-1" , "object":"chat.completion","created":1,"model":"gpt-relay","pad":"${'x'.repeat(padding)}",`
    + '"choices":[{"index":0,"message":{"role":"assistant","content":"h\\u00e9llo"},"finish_reason":"stop"}],'
    + '"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}}';
}

/** An upstream answering `text` in `chunks` pieces, announcing its length or not. */
function fakeUpstream(text: string, options: { announce: boolean; chunks: number }): Upstream & { calls: UpstreamCall[] } {
  const bytes = Buffer.from(text);
  const calls: UpstreamCall[] = [];
  return {
    name: 'fake',
    format: 'chat',
    calls,
    async send(call) {
      calls.push(call);
      const size = Math.ceil(bytes.byteLength / options.chunks);
      async function* body() {
        for (let offset = 0; offset < bytes.byteLength; offset += size) yield bytes.subarray(offset, offset + size);
      }
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'up-1' };
      if (options.announce) headers['content-length'] = String(bytes.byteLength);
      return { status: 200, headers, body: body() };
    },
  };
}

async function collect(body: BytesResponse['body']): Promise<Buffer> {
  if (body instanceof Uint8Array) return Buffer.from(body);
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function call(upstream: Upstream, usage: UsageRecord[]): Promise<GatewayResponse> {
  const gateway = createGateway({
    auth: { keys: [KEY] },
    routes: [{ match: 'gpt-relay', upstream }],
    onUsage: (record) => usage.push(record),
  });
  const rawBody = Buffer.from(JSON.stringify({ model: 'gpt-relay', messages: [{ role: 'user', content: 'Hi' }] }));
  return gateway.handle({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    rawBody,
    signal: new AbortController().signal,
  });
}

describe('relayed JSON answers', () => {
  it.each([1, 3])('a small announced body (%i chunks) comes back whole as one Uint8Array with its usage', async (chunks) => {
    const text = answerText();
    const usage: UsageRecord[] = [];
    const response = await call(fakeUpstream(text, { announce: true, chunks }), usage);
    expect(response.type).toBe('bytes');
    const body = (response as BytesResponse).body;
    expect(body).toBeInstanceOf(Uint8Array);
    expect((await collect(body)).toString('utf8')).toBe(text);
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['upstream-request-id']).toBe('up-1');
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ status: 200, stream: false, aborted: false });
    expect(usage[0]?.inputTokens).toBe(7);
    expect(usage[0]?.outputTokens).toBe(3);
  });

  it('a body without content-length (chunked) is read whole too, same bytes and usage', async () => {
    const text = answerText();
    const usage: UsageRecord[] = [];
    const response = await call(fakeUpstream(text, { announce: false, chunks: 3 }), usage);
    const body = (response as BytesResponse).body;
    expect(body).toBeInstanceOf(Uint8Array);
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect((await collect(body)).toString('utf8')).toBe(text);
    expect(usage).toHaveLength(1);
    expect(usage[0]?.inputTokens).toBe(7);
  });

  it('a body larger than 1 MiB comes back whole with its exact bytes', async () => {
    const text = answerText(2 * 1024 * 1024);
    const response = await call(fakeUpstream(text, { announce: true, chunks: 4 }), []);
    const body = (response as BytesResponse).body;
    expect(response.status).toBe(200);
    expect((await collect(body)).equals(Buffer.from(text))).toBe(true);
  });

  it.each([
    ['an HTML page', 'text/html', '<!doctype html><title>Bad gateway</title>', /content type text\/html instead of JSON/],
    ['JSON cut short', 'application/json', answerText().slice(0, 60), /incomplete or invalid JSON/],
    ['an empty body', 'application/json', '', /incomplete or invalid JSON/],
    ['a JSON array', 'application/json', '[1,2]', /not an object/],
  ])('a 200 with %s becomes a 502 in the caller\'s format, reported to onUsage', async (_name, contentType, text, message) => {
    const usage: UsageRecord[] = [];
    const upstream: Upstream = {
      name: 'broken',
      format: 'chat',
      async send() {
        async function* body() {
          if (text !== '') yield Buffer.from(text);
        }
        return { status: 200, headers: { 'content-type': contentType }, body: body() };
      },
    };
    const response = await call(upstream, usage);
    expect(response.type).toBe('json');
    expect(response.status).toBe(502);
    const error = (response.body as { error: { message: string; type: string } }).error;
    expect(error.type).toBe('server_error');
    expect(error.message).toMatch(message);
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ status: 502, stream: false });
  });

  it('a body shorter than its content-length is a 502', async () => {
    const text = answerText();
    const upstream: Upstream = {
      name: 'short',
      format: 'chat',
      async send() {
        async function* body() {
          yield Buffer.from(text);
        }
        return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(text.length + 10) }, body: body() };
      },
    };
    const response = await call(upstream, []);
    expect(response.status).toBe(502);
    expect(JSON.stringify(response.body)).toContain(`sent ${text.length} of the ${text.length + 10} bytes`);
  });

  it('a 2xx answer a custom upstream builds without headers is a 502, reported once to onUsage like any failed call', async () => {
    const upstream = {
      name: 'headless',
      format: 'chat',
      async send() {
        return { status: 200, body: [Buffer.from('{}')] };
      },
    } as unknown as Upstream;
    const usage: UsageRecord[] = [];
    const response = await call(upstream, usage);
    expect(response.status).toBe(502);
    expect(JSON.stringify(response.body)).toContain('Upstream \\"headless\\" sent an answer this gateway could not read.');
    expect(usage).toHaveLength(1);
    expect(usage[0]!.status).toBe(response.status);
  });

  it('a body over the read limit is a 502 and its reading stops there', async () => {
    let yielded = 0;
    async function* body() {
      for (let index = 0; index < 100; index++) {
        yielded++;
        yield Buffer.alloc(1024, 0x20);
      }
    }
    await expect(readCompleteJson({ status: 200, headers: {}, body: body() }, 'big', 4096)).rejects.toThrow(/larger than this gateway's 4096-byte limit/);
    expect(yielded).toBe(5);
  });

  it('an announced body the upstream cuts becomes a clean 502 (nothing was sent to the client yet)', async () => {
    const upstream: Upstream = {
      name: 'cutting',
      format: 'chat',
      async send() {
        async function* body() {
          yield Buffer.from('{"id":"chatcmpl-1",');
          throw new GatewayError('UPSTREAM_UNAVAILABLE', 'Upstream "cutting" closed the connection in the middle of its response.');
        }
        return { status: 200, headers: { 'content-type': 'application/json', 'content-length': '400' }, body: body() };
      },
    };
    const response = await call(upstream, []);
    expect(response.type).toBe('json');
    expect(response.status).toBe(502);
    expect(JSON.stringify(response.body)).toContain('closed the connection');
  });
});
