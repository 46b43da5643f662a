import { describe, expect, it } from 'vitest';
import { renderError } from '../../../src/render-error.js';
import { toChatErrorResponse } from '../../../src/upstreams/gemini/gemini-chat-answer.js';
import { parseGeminiError, readGeminiError } from '../../../src/upstreams/gemini/read-gemini-error.js';
import { readUpstreamError } from '../../../src/upstreams/read-upstream-error.js';
import type { UpstreamResponse } from '../../../src/upstreams/upstream.js';
import { geminiJson } from '../../helpers/gemini-fixtures.js';
import { toAsyncBody } from '../../helpers/split-randomly.js';

const bytes = (value: unknown): Uint8Array => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const response = (status: number, body: unknown, headers: Record<string, string> = {}): UpstreamResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: toAsyncBody([bytes(body)]),
});

describe('readGeminiError', () => {
  it('reads a quota error as 429 with Google’s RetryInfo as the retry delay', () => {
    expect(readGeminiError(bytes(geminiJson('error-rate-limited')), 429)).toEqual({
      status: 429,
      message: expect.stringContaining('You exceeded your current quota'),
      googleStatus: 'RESOURCE_EXHAUSTED',
      retryAfterMs: 27000,
    });
  });

  it('reads Google’s invalid-key 400 as the 401 it is', () => {
    expect(readGeminiError(bytes(geminiJson('error-api-key-invalid')), 400)).toMatchObject({ status: 401, googleStatus: 'INVALID_ARGUMENT' });
  });

  it('keeps the HTTP status; inside a stream, the envelope’s code, else its status name, says it', () => {
    expect(readGeminiError(bytes(geminiJson('error-overloaded')), 503).status).toBe(503);
    expect(parseGeminiError({ error: { code: 500, message: 'x', status: 'INTERNAL' } }).status).toBe(500);
    expect(parseGeminiError({ error: { message: 'x', status: 'DEADLINE_EXCEEDED' } }).status).toBe(504);
    expect(parseGeminiError([{ error: { code: 404, message: 'models/nope is not found', status: 'NOT_FOUND' } }]).status).toBe(404);
  });

  it('falls back to the status for a body that is not Google’s envelope', () => {
    expect(readGeminiError(bytes('<html>Bad Gateway</html>'), 502)).toEqual({ status: 502 });
    expect(parseGeminiError({ message: 'no envelope' })).toEqual({ status: 502 });
  });
});

describe('toChatErrorResponse', () => {
  it('answers a chat error the gateway reads with Google’s status, retry hint and message', async () => {
    const answer = await toChatErrorResponse(response(429, geminiJson('error-rate-limited')), { upstream: 'gem' });
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('27');
    const error = await readUpstreamError(answer, 'gem');
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', chatType: 'rate_limit_error', chatCode: 'rate_limit_exceeded' });
    expect(error.headers['retry-after']).toBe('27');
    expect(error.message).toContain('You exceeded your current quota');
    // A messages caller reads the vendor's rate-limit type.
    expect(renderError(error, 'messages').body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('tells a 400 with Google’s code name, and keeps the gateway’s key out of a credential failure', async () => {
    const invalid = await readUpstreamError(
      await toChatErrorResponse(response(400, { error: { code: 400, message: 'Unknown name "foo"', status: 'INVALID_ARGUMENT' } }), { upstream: 'gem' }),
      'gem',
    );
    expect(invalid).toMatchObject({ status: 400, chatType: 'invalid_request_error', chatCode: 'invalid_argument', message: 'Unknown name "foo"' });
    const key = await readUpstreamError(await toChatErrorResponse(response(400, geminiJson('error-api-key-invalid')), { upstream: 'gem' }), 'gem');
    expect(key.status).toBe(401);
    expect(key.message).toBe('Upstream "gem" rejected the credentials (HTTP 401).');
  });

  it('redacts Google’s message with the upstream’s redactor', async () => {
    const answer = await toChatErrorResponse(response(500, { error: { code: 500, message: 'failed for key AIzaSECRET', status: 'INTERNAL' } }), {
      upstream: 'gem',
      redact: (text) => text.replace('AIzaSECRET', '[redacted]'),
    });
    expect((await readUpstreamError(answer, 'gem')).message).toBe('failed for key [redacted]');
  });
});
