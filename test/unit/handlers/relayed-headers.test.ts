import { describe, expect, it } from 'vitest';
import { relayedHeaders } from '../../../src/handlers/call-upstream.js';

function relayed(headers: Record<string, string>, rateLimits = false): Record<string, string> {
  return relayedHeaders({ status: 200, headers, body: (async function* () {})() }, { rateLimits });
}

describe('relayedHeaders', () => {
  const upstream = {
    'x-request-id': 'x-1',
    'request-id': 'r-1',
    'retry-after': '2',
    'X-RateLimit-Remaining-Requests': '9',
    'anthropic-ratelimit-tokens-limit': '100',
    'set-cookie': 'a=b',
    server: 'upstream',
    'content-type': 'application/json',
  };

  it("keeps ids and retry hints; renames the upstream id; drops the rest, the account's rate limits included", () => {
    expect(relayed(upstream)).toEqual({ 'upstream-request-id': 'r-1', 'retry-after': '2' });
  });

  it("keeps the rate limits with rateLimits (the caller's own key)", () => {
    expect(relayed(upstream, true)).toEqual({
      'upstream-request-id': 'r-1',
      'retry-after': '2',
      'x-ratelimit-remaining-requests': '9',
      'anthropic-ratelimit-tokens-limit': '100',
    });
  });


  it('falls back to x-request-id, and adds no id when there is none', () => {
    expect(relayed({ 'x-request-id': 'x-1' })).toEqual({ 'upstream-request-id': 'x-1' });
    expect(relayed({ 'content-length': '3' })).toEqual({});
  });
});
