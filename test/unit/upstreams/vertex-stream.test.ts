import { describe, expect, it } from 'vitest';
import { VertexSseBody } from '../../../src/upstreams/vertex/vertex-stream.js';

const SECRET = 'ya29.stream-secret-0123456789';
const redact = (text: string): string => text.split(SECRET).join('[redacted]');

const EVENTS =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"m"}}\n\n' +
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"héllo ✓"}}\n\n' +
  `event: error\r\ndata: {"type":"error","error":{"type":"api_error","message":"bad token ${SECRET}"}}\r\n\r\n`;

async function relay(chunks: Uint8Array[]): Promise<{ text: string; writes: number }> {
  const body = new VertexSseBody(
    (async function* () {
      yield* chunks;
    })(),
    redact,
  );
  const out: Buffer[] = [];
  for await (const chunk of body) out.push(Buffer.from(chunk));
  return { text: Buffer.concat(out).toString('utf8'), writes: out.length };
}

describe('VertexSseBody', () => {
  it('passes events through, whole, and redacts only the error event, whatever the chunking (1-byte writes included)', async () => {
    const bytes = Buffer.from(EVENTS);
    const expected = EVENTS.replace(SECRET, '[redacted]');
    for (const size of [1, 3, 17, bytes.byteLength]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.byteLength; at += size) chunks.push(bytes.subarray(at, at + size));
      const { text } = await relay(chunks);
      expect(text).toBe(expected);
    }
  });

  it('a text delta that mentions the secret is not an error event and passes unchanged; a cut-off last event is flushed redacted', async () => {
    const delta = `event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"${SECRET}"}}\n\n`;
    expect((await relay([Buffer.from(delta)])).text).toBe(delta);
    expect((await relay([Buffer.from(`data: {"type":"error","error":{"message":"${SECRET}"`)])).text).not.toContain(SECRET);
  });
});

describe('VertexSseBody: what it holds of an event still incomplete', () => {
  it('events cut in two at every position (inside `\\n\\n` and `\\r\\n\\r\\n` too) go out whole, one write per completed read', async () => {
    const bytes = Buffer.from(EVENTS);
    const expected = EVENTS.replace(SECRET, '[redacted]');
    for (let cut = 1; cut < bytes.byteLength; cut++) {
      const { text } = await relay([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(text, `cut at ${cut}`).toBe(expected);
    }
  });

  it('an event over 4 Mi characters without its blank line fails with a 502 instead of being held', async () => {
    const head = Buffer.from('event: content_block_delta\ndata: {"text":"');
    const chunks = [head, ...Array.from({ length: 70 }, () => Buffer.alloc(64 * 1024, 'a'))];
    const failure = await relay(chunks).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'UPSTREAM_ERROR', message: 'The upstream stream sent an event larger than 4194304 characters.' });
  });

  it('an event just under the bound, in 1 KiB reads, goes out whole in well under a second', async () => {
    const event = `event: content_block_delta\ndata: {"text":"${'b'.repeat(4 * 1024 * 1024 - 100)}"}\n\n`;
    const bytes = Buffer.from(event);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.byteLength; at += 1024) chunks.push(bytes.subarray(at, at + 1024));
    const started = performance.now();
    const { text, writes } = await relay(chunks);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(writes).toBe(1);
    expect(text === event).toBe(true);
  });
});
