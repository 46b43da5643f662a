import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { formatSse } from '../../../src/sse/format-sse.js';
import { parseSse, type SseEvent } from '../../../src/sse/parse-sse.js';
import { splitRandomly, toAsyncBody } from '../../helpers/split-randomly.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/recorded/${name}`, import.meta.url), 'utf8');

async function collect(body: AsyncIterable<Uint8Array>, maxBufferSize?: number): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(body, maxBufferSize === undefined ? {} : { maxBufferSize })) {
    events.push({ data: event.data, ...(event.event === undefined ? {} : { event: event.event }), ...(event.id === undefined ? {} : { id: event.id }) });
  }
  return events;
}

const whole = (text: string) => toAsyncBody([new TextEncoder().encode(text)]);

describe('parseSse', () => {
  it('parses a recorded messages stream into named events with their exact data text', async () => {
    const events = await collect(whole(fixture('anthropic-text.sse')));
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[2]?.data).toBe('{"type": "ping"}');
    expect(events[8]?.data).toBe('{"type":"message_stop"}');
  });

  it('parses a recorded chat stream into data-only events ending with [DONE]', async () => {
    const events = await collect(whole(fixture('openai-text.sse')));
    expect(events.length).toBeGreaterThan(3);
    expect(events.every((e) => e.event === undefined)).toBe(true);
    expect(events.at(-1)?.data).toBe('[DONE]');
    expect(JSON.parse(events[0]?.data ?? '').object).toBe('chat.completion.chunk');
  });

  it('gives the same events at random chunk boundaries, inside multibyte characters and CRLF line ends', async () => {
    const text =
      'event: greet\r\ndata: {"text":"héllo 👋 日本語 ✓"}\r\n\r\n' +
      'data: first line ñ\r\ndata: second line 🎉\r\n\r\n' +
      'id: 7\r\nevent: x\r\ndata: €€€\r\n\r\n';
    const expected = await collect(whole(text));
    expect(expected).toEqual([
      { event: 'greet', data: '{"text":"héllo 👋 日本語 ✓"}' },
      { data: 'first line ñ\nsecond line 🎉' },
      { event: 'x', id: '7', data: '€€€' },
    ]);
    for (let seed = 1; seed <= 200; seed++) {
      const chunks = splitRandomly(text, { seed, maxChunkSize: 1 + (seed % 7) });
      expect(await collect(toAsyncBody(chunks))).toEqual(expected);
    }
  });

  it('round-trips any event through formatSse at random chunk boundaries (property)', async () => {
    const eventArb = fc.record(
      {
        event: fc.string({ unit: 'grapheme' }).filter((s) => s !== '' && !/[\r\n]/.test(s)),
        data: fc.string({ unit: 'grapheme' }),
      },
      { requiredKeys: ['data'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { maxLength: 8 }), fc.integer({ min: 1, max: 1e6 }), async (events, seed) => {
        const text = events.map((e) => formatSse(e)).join('');
        const parsed = await collect(toAsyncBody(splitRandomly(text, { seed, maxChunkSize: 5 })));
        // SSE cannot carry CR: every line break comes back as LF.
        const expected = events.map((e) => ({
          data: e.data.replace(/\r\n|\r/g, '\n'),
          ...(e.event === undefined ? {} : { event: e.event }),
        }));
        expect(parsed).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('ignores comments and drops an event left unterminated at the end', async () => {
    const events = await collect(whole(': keep-alive\n\ndata: complete\n\n: another\ndata: never ended'));
    expect(events).toEqual([{ data: 'complete' }]);
  });

  it('throws UPSTREAM_ERROR when an event outgrows maxBufferSize', async () => {
    const big = `data: ${'x'.repeat(5000)}`;
    await expect(collect(toAsyncBody(splitRandomly(big, { maxChunkSize: 512 })), 1000)).rejects.toSatisfy(
      (error: unknown) => isGatewayError(error) && error.code === 'UPSTREAM_ERROR' && /1000 characters/.test(error.message),
    );
  });

  it('reads the body lazily: one chunk per batch of events consumed', async () => {
    let pulled = 0;
    async function* body(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield new TextEncoder().encode(`data: ${i}\n\n`);
      }
    }
    const iterator = parseSse(body())[Symbol.asyncIterator]();
    for (let i = 0; i < 5; i++) expect((await iterator.next()).value?.data).toBe(String(i));
    expect(pulled).toBeLessThanOrEqual(6);
    await iterator.return?.(undefined);
  });
});
