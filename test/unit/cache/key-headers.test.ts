import { describe, expect, it } from 'vitest';
import { keyHeaders } from '../../../src/cache/key-headers.js';
import { HeaderForwarding } from '../../../src/upstreams/forward-headers.js';

const messages = { name: 'vendor', format: 'messages' as const };
const chat = { name: 'compatible', format: 'chat' as const };
const simulator = { name: 'sim', format: 'chat' as const, callerHeaderPrefixes: ['x-simulator-'] };

describe('keyHeaders', () => {
  it('keeps the vendor protocol headers a messages upstream is sent, sorted, and leaves out trace context', () => {
    const headers = { 'Anthropic-Version': '2023-06-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14', traceparent: '00-abc-def-01', tracestate: 'x=1', cookie: 'session=1', 'x-api-key': 'sk-secret' };
    expect(keyHeaders({ forwarding: new HeaderForwarding(), headers, upstreams: [messages] })).toEqual([
      ['vendor', [['anthropic-beta', 'interleaved-thinking-2025-05-14'], ['anthropic-version', '2023-06-01']]],
    ]);
  });

  it('adds nothing for a chat upstream with the default forwarding, whatever trace context comes', () => {
    expect(keyHeaders({ forwarding: new HeaderForwarding(), headers: { traceparent: '00-abc-def-01', 'anthropic-beta': 'x' }, upstreams: [chat] })).toEqual([]);
  });

  it("keeps the operator's forwardHeaders, once per upstream, but not an in-process upstream's control headers", () => {
    const forwarding = new HeaderForwarding(['x-tenant-region', 'baggage']);
    const headers = { 'x-tenant-region': 'eu', 'x-simulator-fault': 'status=500', baggage: 'user=1' };
    expect(keyHeaders({ forwarding, headers, upstreams: [chat, simulator, chat] })).toEqual([
      ['compatible', [['x-tenant-region', 'eu']]],
      ['sim', [['x-tenant-region', 'eu']]],
    ]);
  });
});
