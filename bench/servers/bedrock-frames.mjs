/**
 * The stub's Bedrock answer to InvokeModelWithResponseStream: the events of
 * MESSAGES_STREAM (lib/wire-bodies.mjs), each in an AWS event-stream `chunk`
 * frame whose JSON payload carries the event base64-encoded in `bytes` (with
 * Bedrock's `p` padding), encoded by smithy's codec as the test stub does.
 * Built once; the stub only writes these bytes.
 */
import { EventStreamCodec } from '@smithy/core/event-streams';

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

const MODEL = 'vendora-haiku-4-5';

function chunkFrame(event) {
  const payload = JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abcdefg' });
  return Buffer.from(codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: new TextEncoder().encode(payload),
  }));
}

const frames = (events) => Buffer.concat(events.map(chunkFrame));

/** `{ head, body, tail }` as the SSE answers of wire-bodies.mjs: `body` is one content event. */
export const BEDROCK_STREAM = {
  head: frames([
    {
      type: 'message_start',
      message: {
        id: 'msg_bench000000000000000000', type: 'message', role: 'assistant', model: MODEL, content: [],
        stop_reason: null, stop_sequence: null,
        usage: { input_tokens: 210, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ]),
  body: frames([{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' token' } }]),
  tail: frames([
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 50 } },
    { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 210, outputTokenCount: 50, invocationLatency: 1, firstByteLatency: 1 } },
  ]),
};

export const BEDROCK_STREAM_HEAD = { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'req_stub' };
