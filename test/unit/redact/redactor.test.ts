import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { redactError, redactRequest } from '../../../src/redact/redact-error.js';
import { createRedactor, REDACTED } from '../../../src/redact/redactor.js';
import { upstreamSecrets } from '../../../src/redact/upstream-secrets.js';

// Shaped like real keys: a vendor prefix, then random characters (some that JSON and URLs escape).
const KEY = 'sk-ant-api03-Xq7/Zr+9Lm2Pw4Tn8Vb1Kd6=';
const SHORT = 'k9#x2';

describe('createRedactor', () => {
  const redactor = createRedactor([KEY, SHORT, undefined, 'ab']);

  it.each([
    ['whole', `invalid key ${KEY} given`],
    ['inside a longer token', `header was x-api-key:${KEY};`],
    ['after a scheme', `Authorization: Bearer ${KEY}`],
    ['JSON-escaped', `{"detail":${JSON.stringify(`key ${KEY}`)}}`],
    ['JSON-escaped with \\/', `{"detail":"key ${KEY.replace(/\//g, '\\/')}"}`],
    ['URL-encoded', `GET /v1/models?key=${encodeURIComponent(KEY)}&x=1`],
    ['URL-encoded, lower-case hex', `GET /v1/models?key=${encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}`],
    ['cut short', `key ${KEY.slice(0, 20)}… was rejected`],
    ['only its end', `key …${KEY.slice(-12)} was rejected`],
    ['twice', `${KEY} and again ${KEY}`],
  ])('hides a key quoted %s', (_how, text) => {
    const out = redactor.redact(text);
    expect(out).toContain(REDACTED);
    // No run of 8 characters of the key (in any of its escaped forms) is left.
    for (const form of [KEY, JSON.stringify(KEY).slice(1, -1), encodeURIComponent(KEY)]) {
      for (let i = 0; i + 8 <= form.length; i++) expect(out.toLowerCase()).not.toContain(form.slice(i, i + 8).toLowerCase());
    }
  });

  it('keeps the rest of the message readable', () => {
    expect(redactor.redact(`Invalid API key: Bearer ${KEY}. See the docs.`)).toBe(`Invalid API key: Bearer ${REDACTED}. See the docs.`);
    expect(redactor.redact('model "gpt-4o" is overloaded, try again')).toBe('model "gpt-4o" is overloaded, try again');
  });

  it('matches short secrets whole only, and ignores secrets under 4 characters', () => {
    expect(redactor.redact(`pin ${SHORT} and k9#x`)).toBe(`pin ${REDACTED} and k9#x`);
    expect(redactor.redact('ab cab')).toBe('ab cab');
  });

  it('with(): adds a passthrough key without changing the gateway redactor', () => {
    const caller = 'sk-caller-Q2w3E4r5T6y7';
    const perRequest = redactor.with(caller);
    expect(perRequest.redact(`bad ${caller}`)).toBe(`bad ${REDACTED}`);
    expect(perRequest.redact(`bad ${KEY}`)).toBe(`bad ${REDACTED}`);
    expect(redactor.redact(`bad ${caller}`)).toBe(`bad ${caller}`);
    expect(redactor.with(undefined)).toBe(redactor);
  });

  it('an empty redactor returns text unchanged', () => {
    const none = createRedactor([]);
    expect(none.empty).toBe(true);
    expect(none.redact(KEY)).toBe(KEY);
  });
});

describe('upstreamSecrets', () => {
  it('takes the key, credential headers (with and without scheme, Basic password) and credential query values', () => {
    const basic = Buffer.from('svc-user:pa55-w0rd-XYZ').toString('base64');
    const secrets = upstreamSecrets({
      apiKey: 'sk-main-1234567890',
      baseURL: 'https://gw.example/v1?api-version=2024-10-21&key=AIzaSyQUERYKEY123',
      headers: { 'api-key': 'azure-key-abcdef', authorization: `Basic ${basic}`, 'openai-beta': 'assistants=v2' },
    });
    expect(secrets).toEqual(expect.arrayContaining([
      'sk-main-1234567890', 'azure-key-abcdef', `Basic ${basic}`, basic, 'pa55-w0rd-XYZ', 'AIzaSyQUERYKEY123',
    ]));
    expect(secrets).not.toContain('2024-10-21');
    expect(secrets).not.toContain('assistants=v2');
  });
});

describe('redactError', () => {
  const redactor = createRedactor([KEY]);

  it('redacts message, fields, headers and the cause chain; keeps code and status', () => {
    const cause = new SyntaxError(`Unexpected token in "${KEY}"`, { cause: new Error(`inner ${KEY}`) });
    const error = new GatewayError('UPSTREAM_ERROR', `bad ${KEY}`, {
      status: 502, param: KEY, chatCode: `c-${KEY}`, chatType: KEY, messagesType: KEY, headers: { 'x-request-id': KEY }, cause,
    });
    const out = redactError(error, redactor);
    const seen = JSON.stringify({ ...out, message: out.message, stack: out.stack, cause: String(out.cause), c: (out.cause as Error).stack, inner: String((out.cause as Error).cause) });
    expect(seen).not.toContain(KEY.slice(0, 12));
    expect(out.code).toBe('UPSTREAM_ERROR');
    expect(out.status).toBe(502);
    expect(out.message).toBe(`bad ${REDACTED}`);
    expect((out.cause as Error).name).toBe('SyntaxError');
  });

  it('returns the same error when there is nothing to hide', () => {
    const error = new GatewayError('UPSTREAM_ERROR', 'plain');
    expect(redactError(error, redactor)).toBe(error);
  });

  it('redactRequest: credential headers read [redacted], the rest is kept', () => {
    const request = { method: 'POST', url: '/v1/messages', headers: { 'x-api-key': KEY, authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, signal: new AbortController().signal };
    const out = redactRequest(request);
    expect(out.headers).toEqual({ 'x-api-key': REDACTED, authorization: REDACTED, 'content-type': 'application/json' });
    expect(request.headers['x-api-key']).toBe(KEY);
    expect(out.signal).toBe(request.signal);
  });
});
