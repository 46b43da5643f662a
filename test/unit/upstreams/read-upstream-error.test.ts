import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/redact/redactor.js';
import { renderError } from '../../../src/render-error.js';
import { readUpstreamError } from '../../../src/upstreams/read-upstream-error.js';
import type { UpstreamResponse } from '../../../src/upstreams/upstream.js';
import { toAsyncBody } from '../../helpers/split-randomly.js';

function response(status: number, body: unknown, headers: Record<string, string> = {}): UpstreamResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers, body: toAsyncBody([new TextEncoder().encode(text)]) };
}

const messagesError = (type: string, message: string) => ({ type: 'error', error: { type, message }, request_id: 'req_1' });
const chatError = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, param, code } });

describe('readUpstreamError status mapping', () => {
  it.each([
    [400, 'INVALID_REQUEST', 'invalid_request_error', 'invalid_request_error'],
    [404, 'NOT_FOUND', 'not_found_error', 'invalid_request_error'],
    [413, 'REQUEST_TOO_LARGE', 'request_too_large', 'invalid_request_error'],
    [422, 'UPSTREAM_ERROR', 'invalid_request_error', 'invalid_request_error'],
    [429, 'RATE_LIMITED', 'rate_limit_error', 'rate_limit_error'],
    [500, 'UPSTREAM_ERROR', 'api_error', 'server_error'],
    [502, 'UPSTREAM_ERROR', 'api_error', 'server_error'],
    [503, 'UPSTREAM_ERROR', 'api_error', 'server_error'],
    [504, 'UPSTREAM_TIMEOUT', 'timeout_error', 'timeout_error'],
    [529, 'OVERLOADED', 'overloaded_error', 'server_error'],
  ] as const)('keeps upstream status %i (code %s) and renders it in both formats', async (status, code, messagesType, chatType) => {
    const error = await readUpstreamError(response(status, 'upstream said <html>no</html>'), 'vendor');
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.message).toBe(`Upstream "vendor" failed (HTTP ${status}).`);
    const messages = renderError(error, 'messages');
    expect(messages.status).toBe(status);
    expect(messages.body).toEqual({ type: 'error', error: { type: messagesType, message: error.message } });
    expect(renderError(error, 'chat').body).toMatchObject({ error: { type: chatType, message: error.message } });
  });

  it('keeps the vendor message and type of a messages-format error', async () => {
    const error = await readUpstreamError(response(400, messagesError('invalid_request_error', 'messages.1.content.0: bad')), 'v');
    expect(error.message).toBe('messages.1.content.0: bad');
    expect(renderError(error, 'messages').body).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages.1.content.0: bad' },
    });
  });

  it('keeps an overloaded_error type from a 529', async () => {
    const error = await readUpstreamError(response(529, messagesError('overloaded_error', 'Overloaded')), 'v');
    expect(error).toMatchObject({ status: 529, code: 'OVERLOADED', messagesType: 'overloaded_error', message: 'Overloaded' });
  });

  it('keeps type, code and param of a chat-format error', async () => {
    const body = chatError("Unsupported parameter: 'max_tokens'", 'invalid_request_error', 'unsupported_parameter', 'max_tokens');
    const error = await readUpstreamError(response(400, body), 'oai');
    expect(renderError(error, 'chat').body).toEqual(body);
  });

  it('gives credential failures a fixed message instead of the vendor one', async () => {
    const error = await readUpstreamError(response(401, chatError('Incorrect API key provided: sk-abc***xyz', 'invalid_request_error', 'invalid_api_key')), 'oai');
    expect(error).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED', message: 'Upstream "oai" rejected the credentials (HTTP 401).' });
    const forbidden = await readUpstreamError(response(403, messagesError('permission_error', 'key sk-1 cannot')), 'v');
    expect(forbidden.message).not.toContain('sk-1');
    expect(forbidden.code).toBe('PERMISSION_DENIED');
  });

  it('copies retry and request-id headers, nothing else; rate limits only with rateLimits', async () => {
    const upstream = () =>
      response(429, messagesError('rate_limit_error', 'Slow down'), {
        'retry-after': '3',
        'retry-after-ms': '2500',
        'anthropic-ratelimit-requests-remaining': '0',
        'x-ratelimit-remaining-tokens': '10',
        'request-id': 'req_x',
        'set-cookie': 'a=b',
        server: 'vendor-edge',
        'content-type': 'application/json',
      });
    const error = await readUpstreamError(upstream(), 'v');
    expect(error.headers).toEqual({ 'retry-after': '3', 'retry-after-ms': '2500', 'request-id': 'req_x' });
    expect(renderError(error, 'chat').headers['retry-after']).toBe('3');
    const own = await readUpstreamError(upstream(), 'v', { rateLimits: true });
    expect(own.headers).toEqual({
      'retry-after': '3',
      'retry-after-ms': '2500',
      'anthropic-ratelimit-requests-remaining': '0',
      'x-ratelimit-remaining-tokens': '10',
      'request-id': 'req_x',
    });
  });


  it('reads loose shapes: a string error, a bare message, a detail', async () => {
    expect((await readUpstreamError(response(500, { error: 'boom' }), 'v')).message).toBe('boom');
    expect((await readUpstreamError(response(500, { message: 'bare' }), 'v')).message).toBe('bare');
    expect((await readUpstreamError(response(422, { detail: 'fastapi says' }), 'v')).message).toBe('fastapi says');
  });

  it('redacts secrets, cuts long messages and reads a bounded part of a huge body', async () => {
    const redacted = await readUpstreamError(response(400, chatError('key sk-live-123456 is bad', 'x', null)), 'v', { redactor: createRedactor(['sk-live-123456']) });
    expect(redacted.message).toBe('key [redacted] is bad');
    const long = await readUpstreamError(response(400, chatError('y'.repeat(5000), 'x', null)), 'v');
    expect(long.message.length).toBeLessThanOrEqual(2001);
    let served = 0;
    async function* huge(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 10_000; i++) {
        served++;
        yield new Uint8Array(1024).fill(0x61);
      }
    }
    const error = await readUpstreamError({ status: 500, headers: {}, body: huge() }, 'v');
    expect(error.message).toBe('Upstream "v" failed (HTTP 500).');
    expect(served).toBeLessThanOrEqual(65);
  });
});
