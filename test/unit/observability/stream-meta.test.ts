/**
 * Response id, model and finish reasons read from relayed streams, at the
 * relay's byte level: only the events that can hold them are decoded.
 */
import { describe, expect, it } from 'vitest';
import { withResponseMeta } from '../../../src/observability/stream-meta.js';
import { relaySse } from '../../../src/sse/relay-stream.js';
import { createUsageObserver } from '../../../src/sse/usage-observer.js';
import type { WireFormat } from '../../../src/types.js';

/** Relays `text` (one upstream read per element when an array). */
async function relay(format: WireFormat, text: string | string[]) {
  const observer = withResponseMeta(createUsageObserver(format), format);
  const decoded: string[] = [];
  let chunks = 0;
  async function* upstream() {
    for (const piece of Array.isArray(text) ? text : [text]) yield Buffer.from(piece);
  }
  const body = relaySse({
    upstream: upstream(),
    format,
    signal: new AbortController().signal,
    heartbeatMs: 0,
    onEvent: (event) => {
      decoded.push(event.data);
      observer.observe(event);
    },
    observes: (raw) => observer.observes(raw),
    onChunk: () => chunks++,
  });
  for await (const _chunk of body);
  return { meta: observer.meta, usage: observer.usage, decoded, chunks };
}

const chunk = (delta: object, finish: string | null, extra = '') =>
  `data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-z","choices":[{"index":0,"delta":${JSON.stringify(delta)},"finish_reason":${finish === null ? 'null' : `"${finish}"`}}]${extra}}\n\n`;

describe('stream response meta', () => {
  it('chat: decodes the first chunk and the finish chunk only, not the content chunks', async () => {
    const text = chunk({ role: 'assistant' }, null) + chunk({ content: 'a' }, null) + chunk({ content: 'b' }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n';
    const { meta, decoded } = await relay('chat', text);
    expect(meta).toEqual({ id: 'chatcmpl-9', model: 'gpt-z', finishReasons: ['stop'] });
    expect(decoded).toHaveLength(2);
  });

  it('chunk timings are taken once per upstream read, not per event', async () => {
    const events = [chunk({ role: 'assistant' }, null), chunk({ content: 'a' }, null) + chunk({ content: 'b' }, null), chunk({}, 'stop') + 'data: [DONE]\n\n'];
    expect((await relay('chat', events)).chunks).toBe(3);
  });

  it('chat: the finish reason of every choice, across reads', async () => {
    const finish = (index: number, reason: string) => `data: {"id":"chatcmpl-9","choices":[{"index":${index},"delta":{},"finish_reason":"${reason}"}]}\n\n`;
    const events = [chunk({ role: 'assistant' }, null), chunk({ content: 'a' }, null) + finish(0, 'stop'), finish(1, 'length') + 'data: [DONE]\n\n'];
    expect((await relay('chat', events)).meta.finishReasons).toEqual(['stop', 'length']);
  });

  it('messages: message_start and message_delta', async () => {
    const text = [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_7","type":"message","role":"assistant","model":"vendora-q","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":9}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ].join('');
    const { meta, usage, decoded } = await relay('messages', text);
    expect(meta).toEqual({ id: 'msg_7', model: 'vendora-q', finishReasons: ['max_tokens'] });
    expect(usage.outputTokens).toBe(9);
    expect(decoded).toHaveLength(2);
  });
});
