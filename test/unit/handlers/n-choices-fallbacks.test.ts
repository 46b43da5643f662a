/**
 * `n > 1` with fallbacks of the other wire format: a chat upstream answers
 * n choices in one call, a messages upstream is fanned out, so a fallback
 * of the other format is skipped rather than answer fewer choices.
 */
import { createGateway, type Upstream, type UpstreamCall, type UpstreamResponse } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { describe, expect, it } from 'vitest';

const KEY = 'sk-n-choices';

/** An upstream that always fails with 503, counting its calls. */
function failing(format: 'chat' | 'messages'): Upstream & { calls: number } {
  const upstream = {
    name: `failing-${format}`,
    format,
    calls: 0,
    async send(_call: UpstreamCall): Promise<UpstreamResponse> {
      upstream.calls++;
      const body = Buffer.from(JSON.stringify({ error: { message: 'down', type: 'server_error' } }));
      return { status: 503, headers: { 'content-type': 'application/json' }, body: (async function* () { yield body; })() };
    },
  };
  return upstream;
}

/** Counts the calls an upstream gets. */
function counted(upstream: Upstream): Upstream & { calls: number } {
  const wrapper = {
    name: upstream.name,
    format: upstream.format,
    calls: 0,
    send(call: UpstreamCall) {
      wrapper.calls++;
      return upstream.send(call);
    },
  };
  return wrapper;
}

async function ask(gateway: ReturnType<typeof createGateway>, model: string, n: number) {
  const response = await gateway.handle({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: { model, n, messages: [{ role: 'user', content: 'Hello.' }] },
    signal: new AbortController().signal,
  });
  const body = response.type === 'json' ? response.body : JSON.parse(Buffer.from(response.body as Uint8Array).toString('utf8'));
  return { status: response.status, body: body as { choices?: unknown[] } };
}

/** A gateway whose only route has a failing `primary` and the simulator's `fallbackFace` as fallback. */
function setUp(primary: 'chat' | 'messages', fallbackFace: 'chat' | 'messages') {
  const failingPrimary = failing(primary);
  const fallback = counted(createSimulator().upstreams[fallbackFace]);
  const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: 'vendora-sonnet-4-6', upstream: failingPrimary, fallbacks: [fallback], retries: 0 }] });
  return { gateway, primary: failingPrimary, fallback };
}

describe('n > 1 and fallbacks of the other wire format', () => {
  it('a chat primary does not fall back to a messages upstream (it would answer one choice)', async () => {
    const { gateway, primary, fallback } = setUp('chat', 'messages');
    const { status } = await ask(gateway, 'vendora-sonnet-4-6', 2);
    expect(status).toBeGreaterThanOrEqual(500);
    expect(primary.calls).toBe(1);
    expect(fallback.calls).toBe(0);
    // With one choice the same fallback is used.
    const single = await ask(gateway, 'vendora-sonnet-4-6', 1);
    expect(single.status).toBe(200);
    expect(fallback.calls).toBe(1);
  });

  it('a messages primary fans out and does not fall back to a chat upstream', async () => {
    const { gateway, primary, fallback } = setUp('messages', 'chat');
    const { status } = await ask(gateway, 'vendora-sonnet-4-6', 2);
    expect(status).toBeGreaterThanOrEqual(500);
    expect(primary.calls).toBe(2);
    expect(fallback.calls).toBe(0);
  });

  it('a fallback of the same format still serves n choices', async () => {
    const { gateway, primary, fallback } = setUp('messages', 'messages');
    const { status, body } = await ask(gateway, 'vendora-sonnet-4-6', 2);
    expect(status).toBe(200);
    expect(body.choices).toHaveLength(2);
    expect(fallback.calls).toBe(2);
  });
});

describe('a fanned-out stream its adapter drops before reading it', () => {
  it('stops every relay (usage reported as aborted, upstreams released) on return() before the first next()', async () => {
    const records: Array<{ aborted: boolean; stream: boolean }> = [];
    const gateway = createGateway({ auth: { keys: [KEY] }, onUsage: (record) => records.push(record) });
    const response = await gateway.handle({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: { model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'Tell me a long story.' }], n: 2, max_tokens: 256, stream: true },
      signal: new AbortController().signal,
    });
    expect(response.type).toBe('sse');
    // What an adapter does when the head cannot be written: it never reads, it returns.
    await (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]().return?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(records).toHaveLength(2);
    expect(records.every((record) => record.aborted && record.stream)).toBe(true);
    await gateway.close();
  });
});
