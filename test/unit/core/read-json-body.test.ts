import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { DEFAULT_MAX_BODY_BYTES, isJsonContentType, readJsonBody } from '../../../src/read-json-body.js';
import type { GatewayRequest, IncomingHeaders } from '../../../src/types.js';

const LIMIT = 1024;

function request(options: { contentType?: string | string[]; raw?: string | Uint8Array; body?: unknown }): GatewayRequest {
  const headers: IncomingHeaders = {};
  if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  const req: GatewayRequest = { method: 'POST', url: '/v1/messages', headers, signal: new AbortController().signal };
  if (options.raw !== undefined) req.rawBody = typeof options.raw === 'string' ? new TextEncoder().encode(options.raw) : options.raw;
  if ('body' in options) req.body = options.body;
  return req;
}

function failure(req: GatewayRequest, limit = LIMIT): GatewayError {
  try {
    readJsonBody(req, limit);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected readJsonBody to throw');
}

describe('content type', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON',
    '  application/json  ',
    'application/vnd.api+json',
    'application/merge-patch+json; charset=utf-8',
  ])('%j is JSON', (contentType) => {
    expect(isJsonContentType(contentType)).toBe(true);
    expect(readJsonBody(request({ contentType, raw: '{"a":1}' }), LIMIT)).toEqual({ a: 1 });
  });

  it.each([
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/jsonp',
    'application/json-seq',
    'text/foo+json',
    'application/octet-stream',
    '',
  ])('%j → 415 UNSUPPORTED_MEDIA_TYPE', (contentType) => {
    expect(isJsonContentType(contentType)).toBe(false);
    const error = failure(request({ contentType, raw: '{"a":1}' }));
    expect(error.status).toBe(415);
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toContain('application/json');
    if (contentType) expect(error.message).toContain(contentType);
  });

  it('missing content type → 415 naming application/json', () => {
    const error = failure(request({ raw: '{"a":1}' }));
    expect(error.status).toBe(415);
    expect(error.message).toBe('Content-Type must be application/json: send the request body as JSON.');
  });

  it('a parsed body with a wrong content type is refused too', () => {
    expect(failure(request({ contentType: 'text/plain', body: { a: 1 } })).status).toBe(415);
  });

  it('array-valued content-type: first value', () => {
    expect(readJsonBody(request({ contentType: ['application/json', 'text/plain'], raw: '{}' }), LIMIT)).toEqual({});
    expect(failure(request({ contentType: ['text/plain', 'application/json'], raw: '{}' })).status).toBe(415);
  });
});

describe('size limit', () => {
  it('over the limit → 413 REQUEST_TOO_LARGE naming the limit', () => {
    const raw = `{"a":"${'x'.repeat(LIMIT)}"}`;
    const error = failure(request({ contentType: 'application/json', raw }));
    expect(error.status).toBe(413);
    expect(error.code).toBe('REQUEST_TOO_LARGE');
    expect(error.message).toContain(String(LIMIT));
  });

  it('exactly at the limit passes, one byte over fails', () => {
    const filler = 'x'.repeat(LIMIT - '{"a":""}'.length);
    const exact = `{"a":"${filler}"}`;
    expect(new TextEncoder().encode(exact).byteLength).toBe(LIMIT);
    expect(readJsonBody(request({ contentType: 'application/json', raw: exact }), LIMIT)).toEqual({ a: filler });
    expect(failure(request({ contentType: 'application/json', raw: `{"a":"${filler}x"}` })).status).toBe(413);
  });

  it('counts bytes, not characters', () => {
    // 400 three-byte characters: 1,208 bytes but 408 UTF-16 units.
    const raw = `{"a":"${'€'.repeat(400)}"}`;
    expect(failure(request({ contentType: 'application/json', raw })).status).toBe(413);
  });

  it('default limit is 32 MB', () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
  });
});

describe('parsing', () => {
  it('empty body → 400 INVALID_JSON', () => {
    const error = failure(request({ contentType: 'application/json', raw: '' }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_JSON');
    expect(error.message).toMatch(/empty/i);
  });

  it.each(['{"a":', '{a:1}', "{'a':1}", '{"a":1,}', 'not json', '{"a":1}}'])('malformed %j → 400 with the parser detail', (raw) => {
    let detail = '';
    try {
      JSON.parse(raw);
    } catch (error) {
      detail = (error as SyntaxError).message;
    }
    expect(detail).not.toBe('');
    const error = failure(request({ contentType: 'application/json', raw }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_JSON');
    expect(error.message).toContain('not valid JSON');
    expect(error.message).toContain(detail);
  });

  it.each([
    ['an array', '[{"a":1}]'],
    ['a number', '42'],
    ['null', 'null'],
    ['a string', '"hello"'],
    ['a boolean', 'true'],
  ])('%s → 400 INVALID_JSON: must be an object', (_label, raw) => {
    const error = failure(request({ contentType: 'application/json', raw }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_JSON');
    expect(error.message).toBe('Request body must be a JSON object.');
  });

  it('parses UTF-8 text, whitespace around the object included', () => {
    const raw = ' \n{"text":"héllo 🌍 日本"}\n ';
    expect(readJsonBody(request({ contentType: 'application/json', raw }), LIMIT)).toEqual({ text: 'héllo 🌍 日本' });
  });

  it('parses only the view of a Uint8Array that sits inside a larger buffer', () => {
    const bytes = new TextEncoder().encode('GARBAGE{"ok":true}TRAILING');
    const view = bytes.subarray(7, 7 + '{"ok":true}'.length);
    expect(readJsonBody(request({ contentType: 'application/json', raw: view }), LIMIT)).toEqual({ ok: true });
  });

  it('drops a leading UTF-8 byte-order mark, as express.json() does', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":1}')]);
    expect(readJsonBody(request({ contentType: 'application/json', raw: bytes }), LIMIT)).toEqual({ a: 1 });
  });

  it('rawBody wins over a parsed body', () => {
    expect(readJsonBody(request({ contentType: 'application/json', raw: '{"from":"raw"}', body: { from: 'parsed' } }), LIMIT)).toEqual({
      from: 'raw',
    });
  });
});

describe('already-parsed body (no rawBody)', () => {
  it('is returned as is', () => {
    const body = { model: 'vendora-opus-5', max_tokens: 10 };
    expect(readJsonBody(request({ contentType: 'application/json', body }), LIMIT)).toBe(body);
  });

  it('is not subject to the byte limit (the framework already enforced its own)', () => {
    const body = { a: 'x'.repeat(LIMIT * 2) };
    expect(readJsonBody(request({ contentType: 'application/json', body }), LIMIT)).toBe(body);
  });

  it.each([
    ['undefined (nothing parsed, nothing read)', undefined],
    ['an array', [1, 2]],
    ['null', null],
    ['a string', '{"a":1}'],
    ['a number', 3],
  ])('%s → 400 INVALID_JSON', (_label, body) => {
    const error = failure(request({ contentType: 'application/json', body }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_JSON');
  });
});
