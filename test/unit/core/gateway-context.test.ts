import { describe, expect, it } from 'vitest';
import { createGatewayContext } from '../../../src/gateway-context.js';
import type { IncomingHeaders } from '../../../src/types.js';

function contextWith(headers: IncomingHeaders) {
  return createGatewayContext({ method: 'GET', url: '/v1/models', headers, signal: new AbortController().signal });
}

describe('createGatewayContext request ids', () => {
  it('makes req_ + 32 hex digits (a UUID v4 without dashes), different each time', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i += 1) {
      const id = contextWith({}).requestId;
      expect(id).toMatch(/^req_[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(50);
  });

  it('reuses a safe incoming x-request-id and replaces an unsafe one', () => {
    expect(contextWith({ 'x-request-id': 'trace-1.a:b' }).requestId).toBe('trace-1.a:b');
    expect(contextWith({ 'x-request-id': 'bad id\r\n' }).requestId).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe('a request without a signal (JavaScript callers of handle())', () => {
  it('is served like one whose client never aborts, with or without observability', async () => {
    const { createGateway } = await import('../../../src/gateway.js');
    const lines: unknown[] = [];
    const logger = { info: (line: unknown) => lines.push(line), warn: () => {}, error: () => {}, debug: () => {}, child() { return logger; } };
    for (const extra of [{}, { logger }]) {
      const gateway = createGateway({ auth: { keys: ['sk-a'] }, ...extra });
      const request = {
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: 'Bearer sk-a', 'content-type': 'application/json' },
        body: { model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'Say hi.' }], max_tokens: 16 },
      };
      // Built without `signal` on purpose: the types require it, JavaScript does not.
      const response = await gateway.handle(request as unknown as Parameters<typeof gateway.handle>[0]);
      expect(response.status).toBe(200);
      expect(response.type).toBe('json');
      await gateway.close();
    }
    expect(lines.length).toBe(1);
  });
});
