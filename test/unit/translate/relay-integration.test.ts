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
