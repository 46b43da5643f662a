/**
 * The relay over real undici upstream clients and node:http stubs: what the
 * upstream's side sees (socket closes, bytes written) is the assertion.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHAT_DONE, encodeChatChunk, encodeMessagesEvent } from '../../../src/sse/format-sse.js';
import { relaySse, type RelayOutcome } from '../../../src/sse/relay-stream.js';
import { createUsageObserver } from '../../../src/sse/usage-observer.js';
import { openAICompatible } from '../../../src/upstreams/chat-upstream.js';
import { messagesUpstream } from '../../../src/upstreams/messages-upstream.js';
import type { Upstream, UpstreamCall } from '../../../src/upstreams/upstream.js';
import { splitRandomly } from '../../helpers/split-randomly.js';
import { type StubReply, type StubUpstream, startStubUpstream, writeChunk } from '../../helpers/stub-upstream.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const decoder = new TextDecoder();
let stub: StubUpstream | undefined;
let upstream: Upstream | undefined;

afterEach(async () => {
  await stub?.close();
  await upstream?.close?.();
  stub = undefined;
  upstream = undefined;
});

const streamCall = (operation: UpstreamCall['operation']): UpstreamCall => ({
  operation,
  body: { stream: true },
  stream: true,
  headers: {},
  signal: new AbortController().signal,
});

async function open(reply: StubReply, format: 'chat' | 'messages', timeouts = {}) {
  stub = await startStubUpstream([reply]);
  upstream =
    format === 'chat'
      ? openAICompatible({ baseURL: `${stub.url}/v1`, name: 'stub', timeouts })
      : messagesUpstream({ baseURL: stub.url, name: 'stub', timeouts });
  return upstream.send(streamCall(format === 'chat' ? 'chat.completions' : 'messages'));
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of stream) out.push(decoder.decode(chunk));
  return out;
}

const messagesEvents = (n: number): string[] => [
  encodeMessagesEvent({ type: 'message_start', message: { usage: { input_tokens: 3, output_tokens: 1 } } } as { type: string }),
  ...Array.from({ length: n }, (_, i) => encodeMessagesEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `${i} ü` } } as { type: string })),
  encodeMessagesEvent({ type: 'message_delta', usage: { output_tokens: n } } as { type: string }),
  encodeMessagesEvent({ type: 'message_stop' }),
];

describe('relay over HTTP', () => {
  it('relays 10,000 events in order, re-chunked at random boundaries by the upstream', async () => {
    const events = messagesEvents(10_000);
    const text = events.join('');
    const response = await open(
      {
        kind: 'handler',
        handle: async (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const piece of splitRandomly(text, { seed: 4, maxChunkSize: 700 })) if (!(await writeChunk(res, piece))) return;
          res.end();
        },
      },
      'messages',
    );
    const observer = createUsageObserver('messages');
    const chunks = await collect(relaySse({ upstream: response.body, format: 'messages', signal: new AbortController().signal, onEvent: observer.observe }));
    expect(chunks.join('')).toBe(text);
    expect(chunks.every((chunk) => chunk.endsWith('\n\n'))).toBe(true);
    expect(observer.usage).toEqual({ inputTokens: 3, outputTokens: 10_000 });
  });

  it('holds a slow client to bounded memory: the upstream is not read far ahead', async () => {
    let written = 0;
    const event = encodeChatChunk({ choices: [{ delta: { content: 'x'.repeat(1000) } }] });
    const response = await open(
      {
        kind: 'handler',
        handle: async (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          // Up to 64 MB unless backpressure stops the writer first.
          while (written < 64 * 1024 * 1024) {
            if (!(await writeChunk(res, event))) return;
            written += event.length;
          }
          res.end(CHAT_DONE);
        },
      },
      'chat',
    );
    const controller = new AbortController();
    const iterator = relaySse({ upstream: response.body, format: 'chat', signal: controller.signal })[Symbol.asyncIterator]();
    for (let i = 0; i < 20; i++) {
      // One chunk per upstream read: whole events only.
      const chunk = decoder.decode((await iterator.next()).value);
      expect(chunk.length % event.length).toBe(0);
      expect(chunk.slice(0, event.length)).toBe(event);
      await sleep(10);
    }
    await sleep(300);
    // Socket buffers on both ends plus undici's 64 KiB stream buffer; far below the 64 MB the stub would send.
    expect(written).toBeLessThan(8 * 1024 * 1024);
    controller.abort();
  });

  it('closes the upstream socket promptly on a client abort (the upstream itself would hang for good)', async () => {
    const response = await open({ kind: 'sse', events: [{ event: 'message_start', data: '{}' }], then: 'hang' }, 'messages');
    const controller = new AbortController();
    const outcomes: RelayOutcome[] = [];
    const iterator = relaySse({ upstream: response.body, format: 'messages', signal: controller.signal, onEnd: (o) => outcomes.push(o) })[
      Symbol.asyncIterator
    ]();
    await iterator.next();
    const pending = iterator.next();
    await sleep(20);
    const abortedAt = performance.now();
    controller.abort();
    expect((await pending).done).toBe(true);
    const closedAt = await (stub as StubUpstream).closed(0);
    expect(closedAt - abortedAt).toBeLessThan(2000);
    expect(stub?.requests[0]?.completed).toBe(false);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'aborted' })]);
  });

  it('drains the upstream after a client abort when asked, for accounting', async () => {
    const events = messagesEvents(5).map((text) => ({ raw: text }));
    const response = await open(
      {
        kind: 'handler',
        handle: async (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const { raw } of events) {
            if (!(await writeChunk(res, raw))) return;
            await sleep(15);
          }
          res.end();
        },
      },
      'messages',
    );
    const controller = new AbortController();
    const observer = createUsageObserver('messages');
    const ended = new Promise<RelayOutcome>((resolve) => {
      const iterator = relaySse({
        upstream: response.body,
        format: 'messages',
        signal: controller.signal,
        onClientAbort: 'drain',
        onEvent: observer.observe,
        onEnd: resolve,
      })[Symbol.asyncIterator]();
      void iterator.next().then(() => controller.abort());
    });
    const outcome = await ended;
    expect(outcome).toMatchObject({ status: 'aborted', drained: true, events: 8 });
    expect(observer.usage.outputTokens).toBe(5);
    await (stub as StubUpstream).closed(0);
    expect(stub?.requests[0]?.completed).toBe(true);
  });

  it.each(['messages', 'chat'] as const)('turns a %s upstream cut mid-stream into one error event, then ends', async (format) => {
    const first = format === 'messages' ? { event: 'message_start', data: '{"type":"message_start"}' } : { data: '{"choices":[]}' };
    const response = await open({ kind: 'sse', events: [first], then: 'cut' }, format);
    const chunks = await collect(relaySse({ upstream: response.body, format, signal: new AbortController().signal }));
    expect(chunks).toHaveLength(2);
    const last = chunks[1] ?? '';
    if (format === 'messages') {
      expect(last.startsWith('event: error\ndata: ')).toBe(true);
      expect(JSON.parse(last.slice('event: error\ndata: '.length))).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    } else {
      expect(JSON.parse(last.slice('data: '.length))).toMatchObject({ error: { type: 'server_error', param: null } });
    }
    expect(last).toMatch(/stub/);
  });

  it('turns an upstream idle time-out into a timeout_error event', async () => {
    const response = await open({ kind: 'sse', events: [{ event: 'message_start', data: '{}' }], then: 'hang' }, 'messages', { idleMs: 120 });
    const chunks = await collect(relaySse({ upstream: response.body, format: 'messages', signal: new AbortController().signal, heartbeatMs: 50 }));
    const last = chunks.at(-1) ?? '';
    expect(JSON.parse(last.slice('event: error\ndata: '.length))).toEqual({
      type: 'error',
      error: { type: 'timeout_error', message: 'Upstream "stub" sent nothing for 120 ms.' },
    });
    // Heartbeats kept the client connection alive while waiting.
    expect(chunks.slice(1, -1).length).toBeGreaterThanOrEqual(1);
    expect(chunks.slice(1, -1).every((chunk) => chunk === 'event: ping\ndata: {"type": "ping"}\n\n')).toBe(true);
  });
});
