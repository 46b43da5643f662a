import { describe, expect, it } from 'vitest';
import { forwardHeaders, isUnforwardableHeader } from '../../../src/upstreams/forward-headers.js';
import { pickResponseHeaders } from '../../../src/upstreams/response-headers.js';

describe('forwardHeaders', () => {
  const incoming = {
    host: 'gateway.local',
    connection: 'keep-alive, x-simulator-private',
    'keep-alive': 'timeout=5',
    'transfer-encoding': 'chunked',
    'content-length': '12',
    te: 'trailers',
    upgrade: 'h2c',
    'proxy-authorization': 'Basic abc',
    authorization: 'Bearer sk-caller',
    'x-api-key': 'sk-caller',
    cookie: 'session=1',
    'anthropic-version': '2026-10-21',
    'anthropic-beta': ['files-api-2025-04-14', 'tools-1'],
    'x-simulator-fault': 'overloaded',
    'x-simulator-private': 'listed in connection',
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    'x-stainless-lang': 'js',
    'user-agent': 'Anthropic/JS 1.12.0',
    'openai-organization': 'org-caller',
    accept: 'application/json',
    'x-empty': undefined,
  };

  it('keeps protocol, simulator and trace headers and drops everything else', () => {
    expect(forwardHeaders(incoming)).toEqual({
      'anthropic-version': '2026-10-21',
      'anthropic-beta': 'files-api-2025-04-14, tools-1',
      'x-simulator-fault': 'overloaded',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
  });

  it('never forwards credentials or hop-by-hop headers, even when allowed explicitly', () => {
    const out = forwardHeaders(incoming, { allow: ['Authorization', 'x-api-key', 'cookie', 'host', 'openai-organization'] });
    expect(out).not.toHaveProperty('authorization');
    expect(out).not.toHaveProperty('x-api-key');
    expect(out).not.toHaveProperty('cookie');
    expect(out).not.toHaveProperty('host');
    expect(out['openai-organization']).toBe('org-caller');
    for (const name of ['Authorization', 'X-API-KEY', 'proxy-anything', 'Transfer-Encoding']) expect(isUnforwardableHeader(name)).toBe(true);
    expect(isUnforwardableHeader('anthropic-beta')).toBe(false);
  });
});

describe('pickResponseHeaders', () => {
  it('relays request ids, retry hints and rate limits only', () => {
    expect(
      pickResponseHeaders({
        'request-id': 'req_1',
        'x-request-id': 'abc',
        'retry-after': '1',
        'x-should-retry': 'false',
        'x-ratelimit-limit-requests': '60',
        'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:00Z',
        'set-cookie': 'x',
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      }),
    ).toEqual({
      'request-id': 'req_1',
      'x-request-id': 'abc',
      'retry-after': '1',
      'x-should-retry': 'false',
      'x-ratelimit-limit-requests': '60',
      'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:00Z',
    });
  });
});
