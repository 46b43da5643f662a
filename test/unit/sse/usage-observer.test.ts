import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSse } from '../../../src/sse/parse-sse.js';
import { RawSseEvent, readRegularEvent } from '../../../src/sse/raw-sse-event.js';
import { relaySse } from '../../../src/sse/relay-stream.js';
import { chatUsageScanner, createUsageObserver, readUsage } from '../../../src/sse/usage-observer.js';
import { splitRandomly, toAsyncBody } from '../../helpers/split-randomly.js';

const fixture = (name: string): Uint8Array => readFileSync(new URL(`../../fixtures/recorded/${name}`, import.meta.url));

async function observeFixture(name: string, format: 'chat' | 'messages') {
  const observer = createUsageObserver(format);
  for await (const event of parseSse(toAsyncBody([fixture(name)]))) observer.observe(event);
  return observer.usage;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createUsageObserver', () => {
  it('reads input from message_start and cumulative output from message_delta', async () => {
    expect(await observeFixture('anthropic-text.sse', 'messages')).toEqual({ inputTokens: 11, outputTokens: 6 });
  });

  it('reads the usage chunk of a chat stream', async () => {
    const usage = await observeFixture('openai-text.sse', 'chat');
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });

  it('keeps cache counts and lets later reports replace earlier ones', () => {
    const observer = createUsageObserver('messages');
    observer.observe({
      event: 'message_start',
      data: JSON.stringify({
        type: 'message_start',
        message: { usage: { input_tokens: 5, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0, output_tokens: 1 } },
      }),
    });
    observer.observe({ event: 'message_delta', data: '{"type":"message_delta","delta":{},"usage":{"output_tokens":40}}' });
    expect(observer.usage).toEqual({ inputTokens: 5, outputTokens: 40, cacheCreationInputTokens: 2000, cacheReadInputTokens: 0 });
  });

  it('subtracts cached tokens from chat prompt tokens', () => {
    const observer = createUsageObserver('chat');
    observer.observe({ data: '{"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":60}}}' });
    expect(observer.usage).toEqual({ inputTokens: 40, outputTokens: 7, cacheReadInputTokens: 60 });
  });

  it('parses only the events that can carry usage', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const messages = createUsageObserver('messages');
    messages.observe({ event: 'content_block_delta', data: '{"type":"content_block_delta","usage":{"output_tokens":99}}' });
    const chat = createUsageObserver('chat');
    chat.observe({ data: '{"choices":[{"delta":{"content":"hi"}}],"usage":null}' });
    chat.observe({ data: '[DONE]' });
    expect(parse).not.toHaveBeenCalled();
    expect(messages.usage).toEqual({});
    expect(chat.usage).toEqual({});
  });

  it('ignores malformed payloads and bad counts', () => {
    const observer = createUsageObserver('messages');
    observer.observe({ event: 'message_delta', data: '{not json' });
    observer.observe({ event: 'message_delta', data: '{"usage":{"output_tokens":-1,"input_tokens":"3"}}' });
    expect(observer.usage).toEqual({});
  });
});

describe('UsageObserver.observes (the relay decodes only what it names)', () => {
  it.each([
    ['anthropic-text.sse', 'messages', 2],
    ['anthropic-tool-use.sse', 'messages', 2],
    ['openai-text.sse', 'chat', 1],
    ['openai-tool-call.sse', 'chat', 1],
  ] as const)('%s: same usage as observing every event, from %s events decoded', async (name, format, decodedEvents) => {
    const expected = await observeFixture(name, format);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    for (const seed of [1, 2, 3]) {
      const observer = createUsageObserver(format);
      let decoded = 0;
      const relay = relaySse({
        upstream: toAsyncBody(splitRandomly(fixture(name), { seed, maxChunkSize: 200 })),
        format,
        heartbeatMs: 0,
        signal: new AbortController().signal,
        onEvent: (event) => {
          decoded++;
          observer.observe(event);
        },
        observes: (raw) => observer.observes(raw),
      });
      for await (const chunk of relay) expect(chunk.byteLength).toBeGreaterThan(0);
      expect(observer.usage).toEqual(expected);
      expect(decoded).toBe(decodedEvents);
    }
  });

  function rawEvents(sse: string): RawSseEvent[] {
    const buf = Buffer.from(sse);
    const events: RawSseEvent[] = [];
    for (let at = 0; at < buf.length; ) {
      const raw = new RawSseEvent();
      at = readRegularEvent(raw, buf, at);
      expect(at).toBeGreaterThan(0);
      events.push(raw);
    }
    return events;
  }

  it('chat: names the events whose usage is an object, several to a buffer', () => {
    const scanner = chatUsageScanner();
    const events = rawEvents(
      [
        'data: {"choices":[{"delta":{"content":"\\"usage\\": {"}}],"usage":null}\n\n',
        'data: {"choices":[],"usage" : {"prompt_tokens":1}}\n\n',
        'data: {"choices":[{"delta":{"content":"x"}}]}\n\n',
        'data: {"usage":\t{}}\n\n',
        'data: [DONE]\n\n',
      ].join(''),
    );
    expect(events.map((raw) => scanner(raw))).toEqual([false, true, false, true, false]);
  });
});

describe('readUsage', () => {
  it('reads non-streaming bodies of both formats', () => {
    expect(readUsage('messages', { usage: { input_tokens: 21, output_tokens: 6, cache_read_input_tokens: 4 } })).toEqual({
      inputTokens: 21,
      outputTokens: 6,
      cacheReadInputTokens: 4,
    });
    expect(readUsage('chat', { usage: { prompt_tokens: 76, completion_tokens: 24, total_tokens: 100 } })).toEqual({
      inputTokens: 76,
      outputTokens: 24,
    });
    expect(readUsage('chat', null)).toEqual({});
    expect(readUsage('messages', { id: 'x' })).toEqual({});
  });
});
