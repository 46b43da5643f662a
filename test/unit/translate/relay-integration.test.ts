/**
 * The translators behind the real SSE relay: every fixture, re-chunked at
 * random byte boundaries (inside multibyte characters and line ends), gives
 * exactly the output of a direct replay.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { relaySse } from '../../../src/sse/relay-stream.js';
import type { WireFormat } from '../../../src/types.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { createMessagesToChatStream } from '../../../src/translate/messages-to-chat-stream.js';
import { splitRandomly, toAsyncBody } from '../../helpers/split-randomly.js';
import { readFixture, readSseFixture, runTransform } from './support/stream-harness.js';

const DIRS = ['recorded', 'simulator'];
const fixtures = DIRS.flatMap((dir) =>
  readdirSync(fileURLToPath(new URL(`../../fixtures/${dir}/`, import.meta.url)))
    .filter((file) => file.endsWith('.sse'))
    .map((file) => `${dir}/${file}`),
);

function transformFor(upstream: WireFormat) {
  return upstream === 'messages'
    ? createMessagesToChatStream({ model: 'vendora-x', id: 'chatcmpl-r', created: 1, includeUsage: true })
    : createChatToMessagesStream({ model: 'vendora-x', id: 'msg_r' });
}

async function relayText(path: string, upstream: WireFormat, seed: number): Promise<string> {
  const body = toAsyncBody(splitRandomly(readFixture(path), { seed, maxChunkSize: 23 }));
  const relay = relaySse({
    upstream: body,
    upstreamFormat: upstream,
    format: upstream === 'messages' ? 'chat' : 'messages',
    transform: transformFor(upstream),
    heartbeatMs: 0,
    signal: new AbortController().signal,
  });
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of relay) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

describe('translators behind relaySse', () => {
  it('finds the fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(13);
  });

  it.each(fixtures)('%s: relayed at random chunk boundaries = direct replay', async (path) => {
    const upstream: WireFormat = path.includes('/anthropic-') || path.includes('/messages-') ? 'messages' : 'chat';
    const direct = runTransform(transformFor(upstream), await readSseFixture(path), upstream).join('');
    expect(direct.length).toBeGreaterThan(0);
    // Error wording is the relay's own; everything else must match byte for byte.
    const wording = (text: string) => text.replace(/"message":"(?:[^"\\]|\\.)*"/g, '"message":"…"');
    for (const seed of [1, 2, 3]) expect(wording(await relayText(path, upstream, seed))).toBe(wording(direct));
  });
});

describe('the byte path of messages → chat (pushRaw)', () => {
  const opening = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  ].join('');
  const closing = [
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  ].join('');
  const delta = (literal: string) => `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${literal}}}\n\n`;

  /** Relays `sse`; with `observe`, an `onEvent` observer makes the relay decode every event (the decoding path). */
  async function relay(sse: string, observe: boolean, seed: number): Promise<string[]> {
    const relayed = relaySse({
      upstream: toAsyncBody(splitRandomly(sse, { seed, maxChunkSize: 64 })),
      upstreamFormat: 'messages',
      format: 'chat',
      transform: createMessagesToChatStream({ model: 'vendora-x', id: 'chatcmpl-r', created: 1, includeUsage: false }),
      heartbeatMs: 0,
      signal: new AbortController().signal,
      ...(observe ? { onEvent: () => undefined } : {}),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of relayed) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8').split('\n\n').filter((event) => event !== '');
  }

  it('copies the upstream literal as it is spelt, and means the same as the decoding path', async () => {
    const literals = [String.raw`"\u0041\/x"`, '"plain"', '""', String.raw`"line\nbreak \"q\" \ud83d\ude00 é"`];
    const sse = opening + literals.map(delta).join('') + closing;
    for (const seed of [1, 2, 3]) {
      const bytePath = await relay(sse, false, seed);
      const decoded = await relay(sse, true, seed);
      // The literal's own spelling survives only on the byte path.
      expect(bytePath.some((event) => event.includes(String.raw`{"content":"\u0041\/x"}`))).toBe(true);
      expect(decoded.some((event) => event.includes('{"content":"A/x"}'))).toBe(true);
      const parse = (events: string[]) => events.map((event) => (event === 'data: [DONE]' ? event : JSON.parse(event.slice('data: '.length))));
      expect(parse(bytePath)).toEqual(parse(decoded));
      // The empty text sends nothing: role chunk, three texts, finish chunk, [DONE].
      expect(bytePath).toHaveLength(6);
    }
  });

  it('never offers error or terminal events to the byte path, whatever their payload', async () => {
    const disguised = (name: string) => delta('"sneaky"').replace('event: content_block_delta', `event: ${name}`);
    const failed = await relay(opening + delta('"a"') + disguised('error') + closing, false, 1);
    expect(failed.at(-1)).toContain('"error"');
    expect(failed.join('')).not.toContain('sneaky');
    expect(failed).toEqual(await relay(opening + delta('"a"') + disguised('error') + closing, true, 1));
    // A terminal event goes to the decoding path too, so its (odd) payload is read the same way.
    const stopped = await relay(opening + delta('"a"') + disguised('message_stop'), false, 1);
    expect(stopped).toEqual(await relay(opening + delta('"a"') + disguised('message_stop'), true, 1));
  });

  it('leaves irregular deltas to the decoding path with the same result', async () => {
    const sse = opening + delta('"a\\x"') + closing;
    const [bytePath, decoded] = [await relay(sse, false, 1), await relay(sse, true, 1)];
    expect(bytePath).toEqual(decoded);
    expect(bytePath.some((event) => event.includes('"error"'))).toBe(true);
  });
});
