import { validateHeaderName, validateHeaderValue } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isHeaderName, isSafeHeaderValue, MAX_HEADER_VALUE_LENGTH, sanitizeResponseHeaders, toHeaderValue } from '../../../src/header-value.js';
import { pickResponseHeaders } from '../../../src/upstreams/response-headers.js';

/** What Node's own header check accepts: the independent judge of "safe to send". */
function nodeAccepts(name: string, value: string): boolean {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}

describe('toHeaderValue', () => {
  it('keeps printable ASCII as it is', () => {
    expect(toHeaderValue('tools.0 (web_search), temperature')).toBe('tools.0 (web_search), temperature');
  });

  it('turns line breaks, other control characters and non-ASCII into "?"', () => {
    expect(toHeaderValue('a\r\nx-injected: 1')).toBe('a??x-injected: 1');
    expect(toHeaderValue('tab\there\u0000\u007f')).toBe('tab?here??');
    expect(toHeaderValue('café ☕ 😀')).toBe('caf? ? ??');
  });

  it(`cuts at ${MAX_HEADER_VALUE_LENGTH} characters`, () => {
    expect(toHeaderValue('x'.repeat(5000))).toBe('x'.repeat(MAX_HEADER_VALUE_LENGTH));
    expect(toHeaderValue('\n'.repeat(5000))).toBe('?'.repeat(MAX_HEADER_VALUE_LENGTH));
  });

  it('always gives what Node accepts', () => {
    const samples = ['\r\n', '\n', '\r', '\u0000', '\u0085', '\u00ff', '\u0100', '\u2028', '\ud800', 'ok', ''];
    for (const sample of samples) expect(nodeAccepts('x-test', toHeaderValue(`a${sample}b`)), JSON.stringify(sample)).toBe(true);
  });
});

describe('isSafeHeaderValue and isHeaderName', () => {
  it('accept printable ASCII and tokens only', () => {
    expect(isSafeHeaderValue('1; mode=block')).toBe(true);
    expect(isSafeHeaderValue('a\nb')).toBe(false);
    expect(isSafeHeaderValue('é')).toBe(false);
    expect(isHeaderName('x-ratelimit-limit-requests')).toBe(true);
    expect(isHeaderName('x-ratelimit-a\r\nb')).toBe(false);
    expect(isHeaderName('x ratelimit')).toBe(false);
    expect(isHeaderName('')).toBe(false);
  });
});

describe('sanitizeResponseHeaders', () => {
  it('cleans unsafe values, leaves safe ones (however long) and drops invalid names', () => {
    const long = `attachment; filename*=UTF-8''${'%C3%A9'.repeat(400)}`;
    const headers: Record<string, string> = {
      'x-modelgate-warnings': 'bad\r\nx-injected: 1',
      'content-disposition': long,
      'bad name': 'x',
      'x-ok': 'fine',
    };
    sanitizeResponseHeaders(headers);
    expect(headers).toEqual({ 'x-modelgate-warnings': 'bad??x-injected: 1', 'content-disposition': long, 'x-ok': 'fine' });
    for (const [name, value] of Object.entries(headers)) expect(nodeAccepts(name, value)).toBe(true);
  });
});

describe('relayed upstream headers', () => {
  it('are sanitised, and a relayed prefix admits only valid names', () => {
    const picked = pickResponseHeaders({
      'request-id': 'req_1\r\nset-cookie: a=b',
      'x-ratelimit-remaining-requests': '99',
      'x-ratelimit-a\r\nb': '1',
      'set-cookie': 'a=b',
    }, { rateLimits: true });
    expect(picked).toEqual({ 'request-id': 'req_1??set-cookie: a=b', 'x-ratelimit-remaining-requests': '99' });
  });
});
