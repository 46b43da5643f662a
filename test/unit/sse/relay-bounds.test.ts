/**
 * A relayed stream past its size or duration bound: the client gets what
 * came within it and then one error event in its format naming the bound;
 * the upstream is destroyed and the relay reports `failed` once. A drain
 * after the client left stops at the same bounds.
 */
import { describe, expect, it } from 'vitest';
import { encodeChatChunk } from '../../../src/sse/format-sse.js';
import { relaySse, type RelayOutcome } from '../../../src/sse/relay-stream.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { DEFAULT_STREAM_BOUNDS, resolveStreamBounds } from '../../../src/bounds/stream-bounds-options.js';
import { streamHealth } from '../../../src/routing/attempt-health.js';
import { streamTooLarge, streamTooLong } from '../../../src/sse/stream-bounds.js';
import { ControlledBody } from './controlled-body.js';

const decoder = new TextDecoder();
const chunk = (content: string): string =>
  encodeChatChunk({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<string> {
  let text = '';
  for await (const piece of stream) text += decoder.decode(piece);
  return text;
}

/** The chat error object of the stream's last event. */
function lastChatError(text: string): { message: string; type: string } {
  const events = text.trim().split('\n\n');
  return (JSON.parse(events[events.length - 1]!.slice('data: '.length)) as { error: { message: string; type: string } }).error;
}

describe('relaySse bounds: maxBytes', () => {
  it('the read that passes maxBytes is not relayed; the stream ends with a chat error event naming the bound', async () => {
    const upstream = new ControlledBody();
    const outcomes: RelayOutcome[] = [];
    const first = chunk('a'.repeat(100));
    const stream = relaySse({ upstream, format: 'chat', signal: new AbortController().signal, heartbeatMs: 0, bounds: { maxBytes: 1024 }, onEnd: (o) => outcomes.push(o) });
    // Four reads of under 256 bytes stay within 1 KiB; the fifth passes it.
    const size = new TextEncoder().encode(first).byteLength;
    expect(size).toBeGreaterThan(1024 / 5);
    expect(size).toBeLessThan(1024 / 4);
    for (let i = 0; i < 5; i++) upstream.push(first);
    const text = await readAll(stream);
    expect(text.split(first).length - 1).toBe(4);
    const error = lastChatError(text);
    expect(error.message).toBe('Upstream "upstream" streamed more than 1 KiB, the gateway\'s limit for one stream (streamBounds.maxBytes); the stream was ended.');
    expect(error.type).toBe('server_error');
    expect(upstream.destroyedAt).toBeDefined();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'UPSTREAM_ERROR', status: 502 }) })]);
  });

  it('a translated messages stream ends with event: error (api_error) after the events within the bound', async () => {
    const upstream = new ControlledBody();
    const transform = createChatToMessagesStream({ model: 'm', id: 'msg_1' });
    const stream = relaySse({ upstream, format: 'messages', upstreamFormat: 'chat', transform, signal: new AbortController().signal, heartbeatMs: 0, bounds: { maxBytes: 300 }, upstreamName: 'vendor' });
    upstream.push(chunk('Hello'));
    upstream.push(chunk('x'.repeat(400)));
    const text = await readAll(stream);
    expect(text).toContain('"text":"Hello"');
    expect(text).not.toContain('xxxx');
    const last = text.trim().split('\n\n').at(-1)!;
    expect(last.split('\n')[0]).toBe('event: error');
    expect(JSON.parse(last.split('\n')[1]!.slice('data: '.length))).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'Upstream "vendor" streamed more than 300 bytes, the gateway\'s limit for one stream (streamBounds.maxBytes); the stream was ended.' },
    });
  });

  it('maxBytes 0 turns the bound off', async () => {
    const upstream = new ControlledBody();
    const outcomes: RelayOutcome[] = [];
    const stream = relaySse({ upstream, format: 'chat', signal: new AbortController().signal, heartbeatMs: 0, bounds: { maxBytes: 0 }, onEnd: (o) => outcomes.push(o) });
    const big = chunk('y'.repeat(100_000));
    for (let i = 0; i < 20; i++) upstream.push(big);
    upstream.push('data: [DONE]\n\n');
    const text = await readAll(stream);
    expect(text.split(big).length - 1).toBe(20);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'completed' })]);
  });
});

describe('relaySse bounds: maxDurationMs', () => {
  it('wakes a pending read of a silent upstream with a 504 error event, destroys the upstream, reports failed once', async () => {
    const upstream = new ControlledBody();
    const outcomes: RelayOutcome[] = [];
    const started = performance.now();
    const stream = relaySse({ upstream, format: 'chat', signal: new AbortController().signal, heartbeatMs: 0, bounds: { maxDurationMs: 150 }, onEnd: (o) => outcomes.push(o) });
    upstream.push(chunk('Hi'));
    const text = await readAll(stream);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(text.startsWith(chunk('Hi'))).toBe(true);
    const error = lastChatError(text);
    expect(error.message).toBe('Upstream "upstream" streamed for longer than 150 ms, the gateway\'s limit for one stream (streamBounds.maxDurationMs); the stream was ended.');
    expect(error.type).toBe('timeout_error');
    expect(upstream.destroyedAt).toBeDefined();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'UPSTREAM_TIMEOUT', status: 504 }) })]);
  });

  it('a client between reads gets the error event on its next read', async () => {
    const upstream = new ControlledBody();
    const stream = relaySse({ upstream, format: 'chat', signal: new AbortController().signal, heartbeatMs: 0, bounds: { maxDurationMs: 50 } });
    upstream.push(chunk('Hi'));
    expect(decoder.decode((await stream.next()).value)).toBe(chunk('Hi'));
    await sleep(120);
    const rest = await readAll(stream);
    expect(lastChatError(rest).type).toBe('timeout_error');
    expect(upstream.destroyedAt).toBeDefined();
  });

  it('a stream that completes in time is not touched by its clock afterwards', async () => {
    const upstream = new ControlledBody();
    const outcomes: RelayOutcome[] = [];
    const stream = relaySse({ upstream, format: 'chat', signal: new AbortController().signal, heartbeatMs: 0, bounds: { maxDurationMs: 50 }, onEnd: (o) => outcomes.push(o) });
    upstream.push(chunk('Hi'));
    upstream.push('data: [DONE]\n\n');
    const text = await readAll(stream);
    await sleep(100);
    expect(text).toBe(`${chunk('Hi')}data: [DONE]\n\n`);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'completed' })]);
  });
});

describe('relaySse bounds: a drain after the client left', () => {
  it('stops at maxBytes: the upstream is destroyed and the outcome says why', async () => {
    const upstream = new ControlledBody();
    const outcomes: RelayOutcome[] = [];
    const client = new AbortController();
    const stream = relaySse({ upstream, format: 'chat', signal: client.signal, heartbeatMs: 0, onClientAbort: 'drain', bounds: { maxBytes: 2048 }, onEnd: (o) => outcomes.push(o) });
    upstream.push(chunk('Hi'));
    await stream.next();
    client.abort();
    for (let i = 0; i < 20; i++) upstream.push(chunk('z'.repeat(200)));
    await sleep(20);
    expect(upstream.destroyedAt).toBeDefined();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'aborted', drained: false, error: expect.objectContaining({ code: 'UPSTREAM_ERROR' }) })]);
  });

  it('stops at maxDurationMs on an upstream that never ends', async () => {
    const upstream = new ControlledBody();
    const outcomes: RelayOutcome[] = [];
    const client = new AbortController();
    const stream = relaySse({ upstream, format: 'chat', signal: client.signal, heartbeatMs: 0, onClientAbort: 'drain', bounds: { maxDurationMs: 100 }, onEnd: (o) => outcomes.push(o) });
    upstream.push(chunk('Hi'));
    await stream.next();
    client.abort();
    await sleep(40);
    expect(outcomes).toEqual([]);
    await sleep(150);
    expect(upstream.destroyedAt).toBeDefined();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'aborted', drained: false, error: expect.objectContaining({ code: 'UPSTREAM_TIMEOUT' }) })]);
  });
});

describe('resolveStreamBounds', () => {
  it('defaults: 256 MiB and 2 h; each option replaces only its own bound', () => {
    expect(resolveStreamBounds(undefined)).toEqual({ maxBytes: 268_435_456, maxDurationMs: 7_200_000 });
    expect(resolveStreamBounds({ maxBytes: 0 })).toEqual({ maxBytes: 0, maxDurationMs: DEFAULT_STREAM_BOUNDS.maxDurationMs });
    expect(resolveStreamBounds({ maxDurationMs: 300, maxBytes: undefined })).toEqual({ maxBytes: DEFAULT_STREAM_BOUNDS.maxBytes, maxDurationMs: 300 });
  });
});

describe('a stream past its bounds, for cooldowns', () => {
  it('counts as a failure of its target, as an idle time-out does', () => {
    expect(streamHealth('failed', streamTooLarge('u', 1024))).toEqual({ kind: 'failure' });
    expect(streamHealth('failed', streamTooLong('u', 300))).toEqual({ kind: 'failure' });
  });

  it('names the bound in the largest whole unit', () => {
    expect(streamTooLarge('u', 256 * 1024 * 1024).message).toContain('more than 256 MiB');
    expect(streamTooLarge('u', 1500).message).toContain('more than 1500 bytes');
    expect(streamTooLong('u', 7_200_000).message).toContain('longer than 2 h');
    expect(streamTooLong('u', 90_000).message).toContain('longer than 90 s');
  });
});
