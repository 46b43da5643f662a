import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { CHAT_DONE, encodeChatChunk, formatSse } from '../../../src/sse/format-sse.js';
import type { SseEvent } from '../../../src/sse/parse-sse.js';
import { relaySse, type RelayOutcome, type RelaySseOptions, type StreamTransform } from '../../../src/sse/relay-stream.js';
import { createUsageObserver } from '../../../src/sse/usage-observer.js';
import { splitRandomly, toAsyncBody } from '../../helpers/split-randomly.js';
import { ControlledBody } from './controlled-body.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/recorded/${name}`, import.meta.url), 'utf8');
const decoder = new TextDecoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function collect(stream: AsyncIterable<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of stream) out.push(decoder.decode(chunk));
  return out;
}

function relay(options: Partial<RelaySseOptions> & Pick<RelaySseOptions, 'upstream' | 'format'>) {
  const outcomes: RelayOutcome[] = [];
  const stream = relaySse({ signal: new AbortController().signal, onEnd: (o) => outcomes.push(o), ...options });
  return { stream, outcomes };
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

describe('relaySse passthrough', () => {
  it('relays a recorded chat stream byte for byte, one chunk per upstream read', async () => {
    const text = fixture('openai-text.sse');
    const { stream, outcomes } = relay({ upstream: toAsyncBody([new TextEncoder().encode(text)]), format: 'chat' });
    const chunks = await collect(stream);
    expect(chunks).toEqual([text]);
    expect(text.endsWith(CHAT_DONE)).toBe(true);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'completed', events: text.split('\n\n').length - 1 })]);
  });

  it('sends each event of a trickling upstream as soon as it is read', async () => {
    const body = new ControlledBody();
    const { stream } = relay({ upstream: body, format: 'chat' });
    const iterator = stream[Symbol.asyncIterator]();
    body.push('data: {"a":1}\n\ndata: {"a"');
    expect(decoder.decode((await iterator.next()).value)).toBe('data: {"a":1}\n\n');
    body.push(':2}\n');
    body.push('\n');
    expect(decoder.decode((await iterator.next()).value)).toBe('data: {"a":2}\n\n');
    body.push(CHAT_DONE);
    expect(decoder.decode((await iterator.next()).value)).toBe(CHAT_DONE);
    expect((await iterator.next()).done).toBe(true);
  });

  it('relays a recorded messages stream unchanged at random chunk boundaries', async () => {
    const text = fixture('anthropic-tool-use.sse');
    const expected = await collect(relay({ upstream: toAsyncBody([new TextEncoder().encode(text)]), format: 'messages' }).stream);
    expect(expected.join('').endsWith('\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    for (let seed = 1; seed <= 30; seed++) {
      const { stream } = relay({ upstream: toAsyncBody(splitRandomly(text, { seed, maxChunkSize: 9 })), format: 'messages' });
      const chunks = await collect(stream);
      expect(chunks.join('')).toBe(expected.join(''));
      // Chunks are cut at event ends only.
      expect(chunks.every((chunk) => chunk.endsWith('\n\n'))).toBe(true);
    }
  });

  it('passes unknown event types through unchanged, with their ids', async () => {
    const events: SseEvent[] = [
      { event: 'message_start', data: '{"type":"message_start","message":{"usage":{"input_tokens":1,"output_tokens":0}}}' },
      { event: 'vendor_future_event', id: 'e9', data: '{"type":"vendor_future_event","x":[1,2]}' },
      { event: 'message_stop', data: '{"type":"message_stop"}' },
    ];
    const { stream } = relay({ upstream: toAsyncBody([new TextEncoder().encode(events.map(formatSse).join(''))]), format: 'messages' });
    expect((await collect(stream)).join('')).toBe(events.map(formatSse).join(''));
  });

  it('relays 10,000 events in order with nothing lost, whatever the chunking', async () => {
    const text = Array.from({ length: 10_000 }, (_, i) => encodeChatChunk({ i, text: `tok ${i} ✓` })).join('') + CHAT_DONE;
    const observed: number[] = [];
    const { stream, outcomes } = relay({
      upstream: toAsyncBody(splitRandomly(text, { seed: 99, maxChunkSize: 300 })),
      format: 'chat',
      onEvent: (event) => {
        if (event.data !== '[DONE]') observed.push((JSON.parse(event.data) as { i: number }).i);
      },
    });
    const chunks = await collect(stream);
    expect(chunks.join('')).toBe(text);
    expect(chunks.every((chunk) => chunk.endsWith('\n\n'))).toBe(true);
    expect(observed).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    expect(outcomes[0]).toMatchObject({ status: 'completed', events: 10_001 });
  });
});

describe('relaySse faults', () => {
  it.each([
    ['messages', 'event: message_start\ndata: {"type":"message_start"}\n\n'],
    ['chat', 'data: {"choices":[]}\n\n'],
  ] as const)('ends a %s stream cut before its terminal event with one error event', async (format, first) => {
    const { stream, outcomes } = relay({ upstream: toAsyncBody([new TextEncoder().encode(first)]), format, upstreamName: 'vendor' });
    const chunks = await collect(stream);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toBe(first);
    const error = chunks[1] ?? '';
    if (format === 'messages') {
      expect(error.startsWith('event: error\ndata: ')).toBe(true);
      expect(JSON.parse(error.split('data: ')[1] ?? '')).toEqual({
        type: 'error',
        error: { type: 'api_error', message: 'Upstream "vendor" ended the stream before it was complete.' },
      });
    } else {
      expect(JSON.parse(error.slice(6))).toEqual({
        error: { message: 'Upstream "vendor" ended the stream before it was complete.', type: 'server_error', param: null, code: null },
      });
    }
    expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', error: expect.any(GatewayError) })]);
  });

  it('turns an upstream failure mid-stream (idle time-out) into a timeout_error event', async () => {
    const body = new ControlledBody();
    const { stream } = relay({ upstream: body, format: 'messages' });
    body.push('event: message_start\ndata: {"type":"message_start"}\n\n');
    body.fail(new GatewayError('UPSTREAM_TIMEOUT', 'Upstream "v" sent nothing for 50 ms.'));
    const chunks = await collect(stream);
    expect(JSON.parse(chunks[1]?.split('data: ')[1] ?? '')).toEqual({
      type: 'error',
      error: { type: 'timeout_error', message: 'Upstream "v" sent nothing for 50 ms.' },
    });
  });

  it('relays the upstream own error event and ends there', async () => {
    const error = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const body = new ControlledBody();
    const { stream, outcomes } = relay({ upstream: body, format: 'messages' });
    body.push(`event: message_start\ndata: {"type":"message_start"}\n\n${error}`);
    const chunks = await collect(stream);
    expect(chunks.join('')).toBe(`event: message_start\ndata: {"type":"message_start"}\n\n${error}`);
    expect(outcomes[0]).toMatchObject({ status: 'failed', error: { messagesType: 'overloaded_error', status: 529 } });
  });

  it.each([
    ['compact', 'data: {"error":{"message":"Overloaded","type":"server_error"}}\n\n'],
    ['spaced', 'data:  { "error" : {"message":"Overloaded","type":"server_error"}}\n\n'],
  ])('relays a chat upstream in-band error (%s) and ends there, ignoring what follows', async (_name, error) => {
    const first = 'data: {"id":"c","choices":[]}\n\n';
    const { stream, outcomes } = relay({ upstream: toAsyncBody([new TextEncoder().encode(`${first}${error}data: {"id":"late"}\n\n`)]), format: 'chat' });
    const text = (await collect(stream)).join('');
    expect(text.startsWith(first)).toBe(true);
    expect(text.split('\n\n').filter(Boolean)).toHaveLength(2);
    expect(JSON.parse(text.slice(first.length).replace(/^data: /, ''))).toMatchObject({ error: { message: 'Overloaded' } });
    expect(outcomes[0]).toMatchObject({ status: 'failed', error: { message: 'Overloaded', chatType: 'server_error' } });
  });

  it('counts maxBufferSize in characters for multibyte events split across reads', async () => {
    const fits = `data: ${'é'.repeat(60)}\n\n`; // 128 bytes, 68 characters
    const tooLong = `data: ${'é'.repeat(120)}\n\n`; // 128 characters
    const relayed = async (text: string) =>
      (await collect(relay({ upstream: toAsyncBody(splitRandomly(text + CHAT_DONE, { seed: 5, maxChunkSize: 7 })), format: 'chat', maxBufferSize: 100 }).stream)).join('');
    expect(await relayed(fits)).toBe(fits + CHAT_DONE);
    expect(await relayed(tooLong)).toMatch(/larger than 100 characters/);
  });

  it('sends an error event when an event exceeds maxBufferSize', async () => {
    const { stream } = relay({
      upstream: toAsyncBody([new TextEncoder().encode(`data: ${'x'.repeat(2000)}`)]),
      format: 'chat',
      maxBufferSize: 100,
    });
    const chunks = await collect(stream);
    expect(chunks).toHaveLength(1);
    expect(JSON.parse(chunks[0]?.slice(6) ?? '').error.message).toMatch(/larger than 100 characters/);
  });
});

describe('relaySse heartbeat', () => {
  it.each([
    ['messages', 'event: ping\ndata: {"type": "ping"}\n\n', 'event: message_stop\ndata: {}\n\n'],
    ['chat', ': ping\n\n', CHAT_DONE],
  ] as const)('sends %s keep-alives while the upstream is silent', async (format, ping, terminal) => {
    const body = new ControlledBody();
    const { stream } = relay({ upstream: body, format, heartbeatMs: 20 });
    const iterator = stream[Symbol.asyncIterator]();
    // Structural, not timed: while the upstream says nothing, keep-alives keep coming (three of them here)...
    const early: string[] = [];
    while (early.length < 3) {
      const next = await iterator.next();
      if (next.done) throw new Error('the stream ended while the upstream was silent');
      early.push(decoder.decode(next.value));
    }
    expect(early).toEqual([ping, ping, ping]);
    // ...and the upstream's next event still comes through after them.
    body.push(terminal);
    const rest: string[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(decoder.decode(next.value));
    expect(rest.at(-1)).toBe(terminal);
    expect(rest.slice(0, -1).every((chunk) => chunk === ping)).toBe(true);
  });

  it('sends no heartbeat while events keep coming, and none when disabled', async () => {
    const body = new ControlledBody();
    const { stream } = relay({ upstream: body, format: 'chat', heartbeatMs: 0 });
    const reading = collect(stream);
    await sleep(60);
    body.push(CHAT_DONE);
    expect(await reading).toEqual([CHAT_DONE]);
  });
});

describe('relaySse client abort', () => {
  it('stops at once, destroys the upstream and clears its timers', async () => {
    const before = timers();
    const body = new ControlledBody();
    const controller = new AbortController();
    const { stream, outcomes } = relay({ upstream: body, format: 'messages', signal: controller.signal, heartbeatMs: 10_000 });
    const iterator = stream[Symbol.asyncIterator]();
    body.push('event: message_start\ndata: {}\n\n');
    expect((await iterator.next()).done).toBe(false);
    const pending = iterator.next();
    await sleep(5);
    expect(timers()).toBe(before + 1);
    const abortedAt = performance.now();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(body.destroyedAt).toBeDefined();
    // Generous on a loaded machine: the upstream would otherwise stay open for good.
    expect((body.destroyedAt ?? Infinity) - abortedAt).toBeLessThan(2000);
    expect(timers()).toBe(before);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'aborted', events: 1 })]);
    expect((await iterator.next()).done).toBe(true);
  });

  it('ends at once when the client was already gone', async () => {
    const body = new ControlledBody();
    const { stream, outcomes } = relay({ upstream: body, format: 'chat', signal: AbortSignal.abort() });
    expect(await collect(stream)).toEqual([]);
    expect(body.destroyedAt).toBeDefined();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'aborted', events: 0 })]);
  });

  it('treats return() from the consumer as an abort', async () => {
    const body = new ControlledBody();
    const { stream, outcomes } = relay({ upstream: body, format: 'chat' });
    body.push('data: {"a":1}\n\n');
    for await (const chunk of stream) {
      expect(decoder.decode(chunk)).toBe('data: {"a":1}\n\n');
      break;
    }
    expect(body.destroyedAt).toBeDefined();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'aborted' })]);
  });

  it('drains the upstream for accounting when asked, without writing', async () => {
    const body = new ControlledBody();
    const controller = new AbortController();
    const observer = createUsageObserver('messages');
    const outcomes: RelayOutcome[] = [];
    const ended = new Promise<void>((resolve) => {
      const stream = relaySse({
        upstream: body,
        format: 'messages',
        signal: controller.signal,
        onClientAbort: 'drain',
        onEvent: observer.observe,
        onEnd: (o) => {
          outcomes.push(o);
          resolve();
        },
      });
      void (async () => {
        const iterator = stream[Symbol.asyncIterator]();
        body.push('event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":9,"output_tokens":1}}}\n\n');
        await iterator.next();
        const pending = iterator.next();
        controller.abort();
        expect(await pending).toEqual({ done: true, value: undefined });
        body.push('event: content_block_delta\ndata: {}\n\n');
        body.push('event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":77}}\n\n');
        body.push('event: message_stop\ndata: {"type":"message_stop"}\n\n');
        body.end();
      })();
    });
    await ended;
    expect(body.destroyedAt).toBeUndefined();
    expect(observer.usage).toEqual({ inputTokens: 9, outputTokens: 77 });
    expect(outcomes).toEqual([expect.objectContaining({ status: 'aborted', drained: true, events: 4 })]);
  });
});

describe('relaySse backpressure', () => {
  it('reads the upstream only as fast as the client takes events', async () => {
    const body = new ControlledBody();
    for (let i = 0; i < 1000; i++) body.push(`data: ${i}\n\n`);
    const { stream } = relay({ upstream: body, format: 'chat' });
    const iterator = stream[Symbol.asyncIterator]();
    for (let i = 0; i < 10; i++) expect(decoder.decode((await iterator.next()).value)).toBe(`data: ${i}\n\n`);
    await sleep(20);
    expect(body.pulls).toBeLessThanOrEqual(11);
    await iterator.return?.();
  });
});

describe('relaySse with a transform', () => {
  function recordingTransform(log: string[]): StreamTransform {
    return {
      push: (event) => {
        log.push(`push:${event.event ?? ''}:${event.data}`);
        return [`data: ${event.data.toUpperCase()}\n\n`, 'data: extra\n\n'];
      },
      end: () => {
        log.push('end');
        return ['event: message_stop\ndata: {"type":"message_stop"}\n\n'];
      },
      error: (error) => {
        log.push(`error:${error.code}`);
        return [`event: error\ndata: ${error.message}\n\n`];
      },
    };
  }

  it('writes the outputs of the transform for one upstream read as one chunk and never pushes [DONE]', async () => {
    const log: string[] = [];
    const { stream } = relay({
      upstream: toAsyncBody([new TextEncoder().encode(`data: a\n\ndata: b\n\n${CHAT_DONE}`)]),
      format: 'messages',
      upstreamFormat: 'chat',
      transform: recordingTransform(log),
    });
    expect(await collect(stream)).toEqual([
      'data: A\n\ndata: extra\n\ndata: B\n\ndata: extra\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
    ]);
    expect(log).toEqual(['push::a', 'push::b', 'end']);
  });

  it('pushes message_stop before end() and calls error() instead of end() on a cut', async () => {
    const log: string[] = [];
    await collect(
      relay({
        upstream: toAsyncBody([new TextEncoder().encode('event: message_stop\ndata: {}\n\n')]),
        format: 'chat',
        upstreamFormat: 'messages',
        transform: recordingTransform(log),
      }).stream,
    );
    expect(log).toEqual(['push:message_stop:{}', 'end']);

    const cutLog: string[] = [];
    const chunks = await collect(
      relay({
        upstream: toAsyncBody([new TextEncoder().encode('event: message_start\ndata: {}\n\n')]),
        format: 'chat',
        upstreamFormat: 'messages',
        transform: recordingTransform(cutLog),
      }).stream,
    );
    expect(cutLog).toEqual(['push:message_start:{}', 'error:UPSTREAM_ERROR']);
    expect(chunks.at(-1)).toMatch(/^event: error\ndata: Upstream "upstream" ended the stream/);
  });

  it('refuses a format change without a transform', () => {
    expect(() => relaySse({ upstream: toAsyncBody([]), format: 'chat', upstreamFormat: 'messages', signal: new AbortController().signal })).toThrow(
      TypeError,
    );
  });
});
