import { describe, expect, it } from 'vitest';
import { isGatewayError } from 'modelgate';
import { chunkFrame, exceptionFrame, splitEvery, streamEvents } from '../../helpers/bedrock-stub.js';
import { BedrockSseBody, decodeBedrockStream, MAX_FRAME_BYTES } from '../../../src/upstreams/bedrock/bedrock-stream.js';
import { EventStreamFrames, FrameLengthError } from '../../../src/upstreams/bedrock/event-stream-frames.js';

async function* reads(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

/** The SSE text the decoder makes of a stream read as `chunks`. */
async function decode(chunks: readonly Uint8Array[]): Promise<string> {
  const items = decodeBedrockStream(reads(chunks), 'bedrock');
  const first = await items.next();
  let text = '';
  for await (const chunk of new BedrockSseBody(first.done ? undefined : first.value, items, (t) => t, () => undefined)) text += Buffer.from(chunk).toString('utf8');
  return text;
}

/** The vendor's SSE form of one messages event (PROTOCOLS A.5). */
const sseOf = (event: { type: string }): string => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** The frames a splitter hands back for `chunks`, each copied out as bytes. */
function split(chunks: readonly Uint8Array[]): { frames: Buffer[]; pending: number } {
  const splitter = new EventStreamFrames(MAX_FRAME_BYTES);
  const frames: Buffer[] = [];
  for (const chunk of chunks) for (const frame of splitter.push(chunk)) frames.push(Buffer.from(frame));
  return { frames, pending: splitter.pending };
}

describe('EventStreamFrames: whole frames however the reads split them', () => {
  const EVENT = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Split ünïcödé.' } };
  const FRAME = Buffer.from(chunkFrame(EVENT));
  const SECOND = Buffer.from(exceptionFrame('modelStreamErrorException', 'Stopped.'));

  it('the test frame has a prelude, headers, a payload and a CRC to split inside', () => {
    const headersLength = FRAME.readUInt32BE(4);
    // Prelude 12 bytes, headers, payload, 4-byte message CRC: every split position below lands in one of them.
    expect(headersLength).toBeGreaterThan(0);
    expect(FRAME.byteLength - 12 - headersLength - 4).toBeGreaterThan(0);
  });

  it('a frame split in two at every position (prelude, headers, payload, CRC) comes out whole, once', () => {
    for (let cut = 1; cut < FRAME.byteLength; cut++) {
      const { frames, pending } = split([FRAME.subarray(0, cut), FRAME.subarray(cut)]);
      expect(frames, `cut at ${cut}`).toEqual([FRAME]);
      expect(pending).toBe(0);
    }
  });

  it('a frame split in three at every pair of positions comes out whole, once', () => {
    for (let first = 1; first < FRAME.byteLength - 1; first++) {
      for (let second = first + 1; second < FRAME.byteLength; second++) {
        const { frames } = split([FRAME.subarray(0, first), FRAME.subarray(first, second), FRAME.subarray(second)]);
        if (frames.length !== 1 || !frames[0]!.equals(FRAME)) expect.fail(`cuts at ${first} and ${second} gave ${frames.length} frames`);
      }
    }
  });

  it('two frames in reads cut at every position across both: both frames, in order', () => {
    const both = Buffer.concat([FRAME, SECOND]);
    for (let cut = 1; cut < both.byteLength; cut++) {
      expect(split([both.subarray(0, cut), both.subarray(cut)]).frames, `cut at ${cut}`).toEqual([FRAME, SECOND]);
    }
  });

  it('1-byte reads: the length field itself arrives a byte at a time', () => {
    const { frames, pending } = split(splitEvery(Buffer.concat([FRAME, SECOND, FRAME]), 1));
    expect(frames).toEqual([FRAME, SECOND, FRAME]);
    expect(pending).toBe(0);
  });

  it('a read that ends inside a frame leaves its bytes pending', () => {
    expect(split([FRAME, FRAME.subarray(0, 3)]).pending).toBe(3);
    expect(split([FRAME.subarray(0, 20)]).pending).toBe(20);
  });

  it('a length over the largest frame is refused as soon as its 4 bytes are in, even split', () => {
    const prelude = Buffer.alloc(4);
    prelude.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    const splitter = new EventStreamFrames(MAX_FRAME_BYTES);
    expect(splitter.push(prelude.subarray(0, 2))).toEqual([]);
    expect(() => splitter.push(prelude.subarray(2))).toThrow(FrameLengthError);
  });

  it('a length under the frame overhead (16 bytes) is refused', () => {
    const prelude = Buffer.alloc(8);
    prelude.writeUInt32BE(15, 0);
    expect(() => new EventStreamFrames(MAX_FRAME_BYTES).push(prelude)).toThrow(FrameLengthError);
  });

  it('decodeBedrockStream: a stream cut at every position decodes to the same events', async () => {
    const events = streamEvents('Hi there.');
    const bytes = Buffer.concat(events.map((event) => chunkFrame(event)));
    const expected = events.map((event) => sseOf(event as { type: string })).join('');
    for (let cut = 1; cut < bytes.byteLength; cut += 1) {
      expect(await decode([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(expected);
    }
  });

  it('decodeBedrockStream: a cut inside a frame at the end fails the stream with a 502 UPSTREAM_ERROR', async () => {
    const failure = await decode([FRAME, FRAME.subarray(0, 2)]).catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.code).toBe('UPSTREAM_ERROR');
    expect((failure as Error).message).toMatch(/ended inside a frame/);
  });
});

describe('EventStreamFrames: the largest frame in small reads costs linear time', () => {
  /** One `chunk` frame of exactly `MAX_FRAME_BYTES`, its padding sized to fill it. */
  function largestFrame(): { frame: Uint8Array; event: { type: string } } {
    // base64 makes 4 bytes of 3: a text of ~11.5 MiB leaves room for the envelope and padding.
    const event = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x'.repeat(12_000_000) } };
    const base = chunkFrame(event, '').byteLength;
    const frame = chunkFrame(event, 'p'.repeat(MAX_FRAME_BYTES - base));
    return { frame, event };
  }

  it('a 16 MiB frame fed in 1 KiB reads decodes correctly, in well under the seconds a copy per read takes', async () => {
    const { frame, event } = largestFrame();
    expect(frame.byteLength).toBe(MAX_FRAME_BYTES);
    const chunks = splitEvery(frame, 1024);
    expect(chunks.length).toBe(16_384);
    const started = performance.now();
    const text = await decode(chunks);
    const elapsed = performance.now() - started;
    expect(text).toBe(sseOf(event));
    // Joining the frame once takes well under a second here; a join per read (~128 GiB copied) took 30 s on the same machine.
    expect(elapsed).toBeLessThan(5_000);
  }, 30_000);
});
