/**
 * The passthrough relay forwards regular events as the upstream's bytes and
 * parses the rest: its output must equal, byte for byte, what parsing every
 * event and formatting it again gives, for any mix of line ends, comments,
 * ids, multi-line data, BOMs and chunk boundaries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSse } from '../../../src/sse/format-sse.js';
import { parseSse } from '../../../src/sse/parse-sse.js';
import { relaySse } from '../../../src/sse/relay-stream.js';
import { splitRandomly, toAsyncBody } from '../../helpers/split-randomly.js';

const decoder = new TextDecoder();
const STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

/** The reference: parse everything, format every event up to `message_stop`. */
async function reference(bytes: Uint8Array): Promise<string> {
  let out = '';
  for await (const event of parseSse(toAsyncBody([bytes]))) {
    out += formatSse(event);
    if (event.event === 'message_stop') break;
  }
  return out;
}

async function relayed(chunks: Uint8Array[]): Promise<string> {
  let out = '';
  const stream = relaySse({ upstream: toAsyncBody(chunks), format: 'messages', signal: new AbortController().signal, heartbeatMs: 0 });
  for await (const chunk of stream) out += decoder.decode(chunk);
  return out;
}

const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !/[\r\n]/.test(s));
const name = fc.constantFrom('content_block_delta', 'ping', 'x', ' spaced', 'ü');
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
// Each block is a list of lines; a block ends with an empty line.
const line = fc.oneof(
  { weight: 5, arbitrary: text.map((t) => `data: ${t}`) },
  { weight: 3, arbitrary: name.map((n) => `event: ${n}`) },
  { weight: 1, arbitrary: text.map((t) => `data:${t}`) },
  { weight: 1, arbitrary: text.map((t) => `: ${t}`) },
  { weight: 1, arbitrary: text.map((t) => `id: ${t}`) },
  { weight: 1, arbitrary: fc.constantFrom('retry: 10', 'event:', 'data', 'bogus: 1') },
);
const block = fc.array(line, { minLength: 0, maxLength: 3 });

describe('passthrough relay vs parse-and-format', () => {
  it('writes the same bytes for any stream at any chunk boundaries (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(block, eol), { maxLength: 8 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 1000 }),
        async (blocks, bom, seed) => {
          const body = blocks.map(([lines, end]) => lines.map((l) => l + end).join('') + end).join('');
          const bytes = new TextEncoder().encode(`${bom ? '\uFEFF' : ''}${body}${STOP}data: after the end\n\n`);
          const expected = await reference(bytes);
          expect(await relayed([bytes])).toBe(expected);
          expect(await relayed(splitRandomly(bytes, { seed, maxChunkSize: 7 }))).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('forwards regular events as sent and still normalises irregular ones', async () => {
    const input = 'event: a\ndata: 1\n\n: comment\n\ndata:2\n\nid: 7\ndata: 3\n\n' + STOP;
    expect(await relayed(splitRandomly(input, { seed: 3, maxChunkSize: 5 }))).toBe(
      'event: a\ndata: 1\n\ndata: 2\n\nid: 7\ndata: 3\n\n' + STOP,
    );
    const crlf = 'event: a\r\ndata: 1\r\n\r\n' + STOP.replaceAll('\n', '\r\n');
    expect(await relayed([new TextEncoder().encode(crlf)])).toBe('event: a\ndata: 1\n\n' + STOP);
  });
});
