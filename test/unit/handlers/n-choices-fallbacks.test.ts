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

/** A streamed chat request for two choices (fanned out to a messages upstream). */
function streamTwo(gateway: ReturnType<typeof createGateway>, model: string) {
  return gateway.handle({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: { model, messages: [{ role: 'user', content: 'Tell me a long story.' }], n: 2, max_tokens: 64, stream: true },
    signal: new AbortController().signal,
  });
}

describe('a fanned-out stream its adapter drops before reading it', () => {
  it('stops every relay (usage reported as aborted, upstreams released) on return() before the first next()', async () => {
    const records: Array<{ aborted: boolean; stream: boolean }> = [];
    const gateway = createGateway({ auth: { keys: [KEY] }, onUsage: (record) => records.push(record) });
    const response = await streamTwo(gateway, 'vendora-sonnet-4-6');
    expect(response.type).toBe('sse');
    // What an adapter does when the head cannot be written: it never reads, it returns.
    await (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]().return?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(records).toHaveLength(2);
    expect(records.every((record) => record.aborted && record.stream)).toBe(true);
    await gateway.close();
  });
});

describe('a fanned-out stream returned while a read waits on silent upstreams', () => {
  it('return() reaches the relays at once (no heartbeat to wake them) and ends their usage reports', async () => {
    const encoder = new TextEncoder();
    const start = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } })}\n\n`;
    const silent: Upstream = {
      name: 'silent',
      format: 'messages',
      send(call: UpstreamCall): Promise<UpstreamResponse> {
        const body = (async function* () {
          yield encoder.encode(start);
          await new Promise<void>((resolve) => call.signal.addEventListener('abort', () => resolve()));
        })();
        return Promise.resolve({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
      },
    };
    const records: Array<{ aborted: boolean }> = [];
    const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream: silent }], heartbeatMs: 0, onUsage: (record) => records.push(record) });
    const response = await streamTwo(gateway, 'm');
    expect(response.type).toBe('sse');
    const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    void iterator.next().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outcome = await Promise.race([
      iterator.return!().then(() => 'returned'),
      new Promise((resolve) => setTimeout(() => resolve('still pending'), 1000)),
    ]);
    expect(outcome).toBe('returned');
    expect(records).toHaveLength(2);
    expect(records.every((record) => record.aborted)).toBe(true);
    await gateway.close();
  });
});
