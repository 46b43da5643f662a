import { describe, expect, it } from 'vitest';
import { forwardHeaderRefusal, forwardHeaders, HeaderForwarding, isUnforwardableHeader } from '../../../src/upstreams/forward-headers.js';
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
    'x-modelgate-debug': '1',
    forwarded: 'for=10.0.0.7;proto=https',
    'x-forwarded-for': '10.0.0.7',
    'x-forwarded-host': 'intranet.corp',
    'x-real-ip': '10.0.0.7',
    accept: 'application/json',
    'x-empty': undefined,
  };

  it('keeps the protocol and trace headers of a messages upstream and drops everything else (simulator controls too)', () => {
    expect(forwardHeaders(incoming, { format: 'messages' })).toEqual({
      'anthropic-version': '2026-10-21',
      'anthropic-beta': 'files-api-2025-04-14, tools-1',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
  });

  it('gives a chat upstream trace context only', () => {
    expect(forwardHeaders(incoming, { format: 'chat' })).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  });

  it("adds an in-process upstream's own prefixes, still minus what the connection header lists", () => {
    const forwarding = new HeaderForwarding();
    expect(forwarding.pick(incoming, { format: 'chat', callerHeaderPrefixes: ['x-simulator-'] })).toEqual({
      'x-simulator-fault': 'overloaded',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    expect(forwarding.pick(incoming, { format: 'chat' })).not.toHaveProperty('x-simulator-fault');
  });

  it('adds the configured names to both formats, case-insensitively', () => {
    const forwarding = new HeaderForwarding(['OpenAI-Organization', 'x-stainless-lang']);
    for (const format of ['chat', 'messages'] as const) {
      expect(forwarding.pick(incoming, { format })).toMatchObject({ 'openai-organization': 'org-caller', 'x-stainless-lang': 'js' });
    }
  });

  it('refuses credentials, framing, proxy headers, via and the gateway’s own for configuration, and says why', () => {
    for (const name of ['authorization', 'Cookie', 'x-api-key', 'host', 'content-length', 'forwarded', 'x-forwarded-for', 'x-real-ip', 'proxy-authorization', 'via', 'x-modelgate-anything']) {
      expect(forwardHeaderRefusal(name), name).toMatch(/./);
    }
    for (const name of ['x-my-trace', 'openai-organization', 'x-simulator-fault', 'anthropic-beta']) expect(forwardHeaderRefusal(name), name).toBeUndefined();
  });

  it('never forwards credentials or hop-by-hop headers, even when allowed explicitly', () => {
    const out = forwardHeaders(incoming, { allow: ['Authorization', 'x-api-key', 'cookie', 'host', 'openai-organization'] });
    expect(out).not.toHaveProperty('authorization');
    expect(out).not.toHaveProperty('x-api-key');
    expect(out).not.toHaveProperty('cookie');
    expect(out).not.toHaveProperty('host');
    expect(out['openai-organization']).toBe('org-caller');
    for (const name of ['Authorization', 'X-API-KEY', 'proxy-anything', 'Transfer-Encoding', 'X-Forwarded-For', 'forwarded', 'x-modelgate-x']) expect(isUnforwardableHeader(name)).toBe(true);
    expect(isUnforwardableHeader('anthropic-beta')).toBe(false);
  });
});

describe('pickResponseHeaders', () => {
  const upstream = {
    'request-id': 'req_1',
    'x-request-id': 'abc',
    'retry-after': '1',
    'x-should-retry': 'false',
    'x-ratelimit-limit-requests': '60',
    'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:00Z',
    'set-cookie': 'x',
    'content-type': 'application/json',
    'transfer-encoding': 'chunked',
  };
  const idsAndRetryHints = { 'request-id': 'req_1', 'x-request-id': 'abc', 'retry-after': '1', 'x-should-retry': 'false' };

  it("relays request ids and retry hints only: the upstream's rate limits describe the operator's account", () => {
    expect(pickResponseHeaders(upstream)).toEqual(idsAndRetryHints);
  });

  it("relays the rate limits too when asked (a call made with the caller's own key)", () => {
    expect(pickResponseHeaders(upstream, { rateLimits: true })).toEqual({
      ...idsAndRetryHints,
      'x-ratelimit-limit-requests': '60',
      'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:00Z',
    });
  });
});
