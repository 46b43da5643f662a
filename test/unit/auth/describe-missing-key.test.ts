import { describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/auth/authenticate.js';
import { describeMissingKey } from '../../../src/auth/describe-missing-key.js';
import { createKeyVerifier } from '../../../src/auth/verify-key.js';
import { GatewayError } from '../../../src/errors.js';
import { renderError } from '../../../src/render-error.js';
import type { IncomingHeaders } from '../../../src/types.js';

const KEY = 'sk-proj-Zq81xVb02';
// The spec: chat completions take `Authorization: Bearer <key>`; the messages interface also `x-api-key`.
const CHAT_EXPECTED = '"Authorization: Bearer <key>"';
const MESSAGES_EXPECTED = '"x-api-key: <key>" or "Authorization: Bearer <key>"';

describe('describeMissingKey: what was sent instead of a key', () => {
  it.each<[string, IncomingHeaders, string]>([
    ['a bare key in Authorization', { authorization: KEY }, 'the Authorization header has no scheme'],
    ['Basic', { authorization: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}` }, 'the Authorization header uses the Basic scheme, not Bearer'],
    ['Token, any case', { authorization: `token ${KEY}` }, 'the Authorization header uses the Token scheme, not Bearer'],
    ['an unknown first word (never repeated: it may be part of a key)', { authorization: `${KEY} ${KEY}` }, 'the Authorization header uses a scheme other than Bearer'],
    ['api-key (Azure style)', { 'api-key': KEY }, 'the key came in the api-key header, which this gateway does not read'],
    ['x-goog-api-key', { 'x-goog-api-key': KEY }, 'the key came in the x-goog-api-key header'],
    ['openai-api-key', { 'openai-api-key': KEY }, 'the key came in the openai-api-key header'],
    ['a mixed-case header name', { 'X-Goog-Api-Key': KEY }, 'the key came in the x-goog-api-key header'],
  ])('chat, %s', (_name, headers, said) => {
    const message = describeMissingKey(headers, 'bearer');
    expect(message).toMatch(/^No API key read: /);
    expect(message).toContain(said);
    expect(message).toContain(CHAT_EXPECTED);
    expect(message).not.toContain(KEY);
    expect(message).not.toContain(Buffer.from(`user:${KEY}`).toString('base64'));
  });

  it('chat, x-api-key: names the header as the messages interface\'s', () => {
    const message = describeMissingKey({ 'x-api-key': KEY }, 'bearer');
    expect(message).toContain('the key came in the x-api-key header, which chat completions do not read');
    expect(message).not.toContain(KEY);
  });

  it('messages: x-api-key is read there, so a wrong header or scheme is reported with both accepted forms', () => {
    const message = describeMissingKey({ 'openai-api-key': KEY, authorization: `Basic ${KEY}` }, 'bearer-or-api-key');
    expect(message).toBe(
      'No API key read: the Authorization header uses the Basic scheme, not Bearer; the key came in the openai-api-key header, which this gateway does not read. Send it as "x-api-key: <key>" or "Authorization: Bearer <key>".',
    );
  });

  it('nothing relevant sent: plain "Missing API key", in each endpoint\'s terms', () => {
    const others = { 'content-type': 'application/json', 'x-csrf-token': 'abc', 'anthropic-version': '2023-06-01' };
    expect(describeMissingKey(others, 'bearer')).toBe(`Missing API key: send it as ${CHAT_EXPECTED} (the only header chat completions read).`);
    expect(describeMissingKey(others, 'bearer-or-api-key')).toBe(`Missing API key: send it as ${MESSAGES_EXPECTED}.`);
  });

  it('a header listed with an undefined value is not reported', () => {
    expect(describeMissingKey({ 'api-key': undefined }, 'bearer')).toMatch(/^Missing API key: send it/);
  });
});

describe('authenticate: the 401 carries the description, in both formats', () => {
  const verify = createKeyVerifier({ keys: [KEY] });
  const request = (headers: IncomingHeaders) => ({ method: 'POST', url: '/v1/chat/completions', headers, signal: new AbortController().signal });

  it('a bare key on chat completions → 401 invalid_api_key saying to add Bearer', async () => {
    const error = await authenticate(request({ authorization: KEY }), 'bearer', verify).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    const rendered = renderError(error as GatewayError, 'chat');
    expect(rendered.status).toBe(401);
    expect(rendered.body).toEqual({
      error: { message: expect.stringContaining('the Authorization header has no scheme'), type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    });
    expect(JSON.stringify(rendered)).not.toContain(KEY);
  });

  it('a key set as "Bearer sk-..." (the client adds another Bearer) → 401 saying to drop the scheme from the key', async () => {
    const error = (await authenticate(request({ authorization: `Bearer Bearer ${KEY}` }), 'bearer', verify).catch((caught: unknown) => caught)) as GatewayError;
    expect(error.status).toBe(401);
    expect(error.message).toContain('the key sent starts with "Bearer "');
    expect(error.message).not.toContain(KEY);
  });

  it('a wrong key is still "Invalid API key" (the description is for keys not read at all)', async () => {
    const error = (await authenticate(request({ authorization: 'Bearer sk-other' }), 'bearer', verify).catch((caught: unknown) => caught)) as GatewayError;
    expect(error.message).toBe('Invalid API key: the key sent is not one this gateway accepts.');
  });
});
