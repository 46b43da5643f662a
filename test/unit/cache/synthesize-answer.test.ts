/**
 * The upstream response a hit answers with: its head, fresh ids, and event
 * streams in the order and shapes the vendors send (PROTOCOLS A.6, B.4).
 */
import { describe, expect, it } from 'vitest';
import { createAnswerRecorder } from '../../../src/cache/answer-recorder.js';
import type { CachedAnswer } from '../../../src/cache/cache-types.js';
import { synthesizeUpstreamResponse } from '../../../src/cache/synthesize-answer.js';
import { chatCompletionChunkSchema, messagesStreamEventSchema } from '../../../src/schemas/index.js';
import type { SseEvent } from '../../../src/sse/parse-sse.js';
import { readEvents, readJson, readText } from './support/read-response.js';

type Json = Record<string, unknown>;

const chatBody: Json = {
  id: 'chatcmpl-stored',
  object: 'chat.completion',
  created: 1_600_000_000,
  model: 'gpt-test',
  system_fingerprint: 'fp_1',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Checking.',
        refusal: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
          { id: 'call_b', type: 'function', function: { name: 'b', arguments: '{}' } },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
};

const messagesBody: Json = {
  id: 'msg_stored',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content: [
    { type: 'thinking', thinking: 'Hmm.', signature: 'sig==' },
    { type: 'text', text: 'Calling.' },
    { type: 'tool_use', id: 'toolu_a', name: 'a', input: { x: 1 } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  stop_details: null,
  usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 7 },
};

const entry = (format: 'chat' | 'messages', body: Json): CachedAnswer => ({ v: 1, createdAt: 0, format, upstream: 'u', body });
const payloads = (events: readonly SseEvent[]): Json[] => events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Json);

describe('synthesizeUpstreamResponse: JSON', () => {
  it('answers 200 with a JSON body whose length is announced', async () => {
    const response = synthesizeUpstreamResponse(entry('chat', chatBody), { stream: false, includeUsage: false });
    expect(response.status).toBe(200);
    const text = await readText(synthesizeUpstreamResponse(entry('chat', chatBody), { stream: false, includeUsage: false }));
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  });

  it('gives every hit a fresh id in the format\'s style and, for chat, created = now; tool-call ids are kept', async () => {
    const before = Math.floor(Date.now() / 1000);
    const first = await readJson(synthesizeUpstreamResponse(entry('chat', chatBody), { stream: false, includeUsage: false }));
    const second = await readJson(synthesizeUpstreamResponse(entry('chat', chatBody), { stream: false, includeUsage: false }));
    expect(first.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(second.id).not.toBe(first.id);
    expect(first.created).toBeGreaterThanOrEqual(before);
    expect(first.created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(first).toEqual({ ...chatBody, id: first.id, created: first.created });
    const message = await readJson(synthesizeUpstreamResponse(entry('messages', messagesBody), { stream: false, includeUsage: false }));
    expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(message).toEqual({ ...messagesBody, id: message.id });
  });
});

describe('synthesizeUpstreamResponse: chat stream', () => {
  it('is an event stream of valid chunks: role chunk, content, one call after the other, finish chunk, usage chunk, [DONE]', async () => {
    const response = synthesizeUpstreamResponse(entry('chat', chatBody), { stream: true, includeUsage: true });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    const events = await readEvents(response);
    expect(events.every((event) => event.event === undefined)).toBe(true);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = payloads(events);
    for (const chunk of chunks) chatCompletionChunkSchema.parse(chunk);
    const ids = new Set(chunks.map((chunk) => chunk.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^chatcmpl-/);
    expect(chunks.every((chunk) => chunk.model === 'gpt-test' && chunk.system_fingerprint === 'fp_1' && chunk.object === 'chat.completion.chunk')).toBe(true);
    const deltas = chunks.slice(0, -1).map((chunk) => (chunk.choices as Json[])[0]);
    expect(deltas).toEqual([
      { index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: 'Checking.' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'a', arguments: '{"x":1}' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'b', arguments: '{}' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' },
    ]);
    // Every chunk but the last has `usage: null`; the last has no choices and the usage (PROTOCOLS B.4).
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: chatBody.usage });
  });

  it('without includeUsage: no usage chunk and no usage field', async () => {
    const chunks = payloads(await readEvents(synthesizeUpstreamResponse(entry('chat', chatBody), { stream: true, includeUsage: false })));
    expect(chunks.every((chunk) => !('usage' in chunk) && (chunk.choices as Json[]).length === 1)).toBe(true);
  });

  it('a calls-only answer starts with content null (as the vendor sends it)', async () => {
    const body = { ...chatBody, choices: [{ ...(chatBody.choices as Json[])[0], message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] } }] };
    const [first] = payloads(await readEvents(synthesizeUpstreamResponse(entry('chat', body), { stream: true, includeUsage: false })));
    expect((first?.choices as Json[])[0]?.delta).toEqual({ role: 'assistant', content: null });
  });

  it('sends a long text in pieces of at most 16 KiB characters without cutting a surrogate pair, and it records back whole', async () => {
    // An emoji (two UTF-16 units) straddles the 16,384th character.
    const text = `${'a'.repeat(16_383)}🌍${'b'.repeat(40_000)}`;
    const body = { ...chatBody, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] };
    const events = await readEvents(synthesizeUpstreamResponse(entry('chat', body), { stream: true, includeUsage: false }));
    const pieces = payloads(events).map((chunk) => ((chunk.choices as Json[])[0]?.delta as Json).content).filter((content): content is string => typeof content === 'string' && content !== '');
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.every((piece) => piece.length <= 16_384 && !/[\ud800-\udbff]$/.test(piece) && !/^[\udc00-\udfff]/.test(piece))).toBe(true);
    expect(pieces.join('')).toBe(text);
    const recorder = createAnswerRecorder('chat');
    for (const event of events) recorder.observe(event);
    expect((recorder.finish()?.choices as Json[])[0]).toMatchObject({ message: { content: text } });
  });
});

describe('synthesizeUpstreamResponse: messages stream', () => {
  it('is the vendor\'s event sequence: message_start, each block started / filled / stopped in order, message_delta, message_stop', async () => {
    const response = synthesizeUpstreamResponse(entry('messages', messagesBody), { stream: true, includeUsage: false });
    expect(response.headers['content-type']).toBe('text/event-stream');
    const events = await readEvents(response);
    const data = payloads(events);
    // Every event names its type (the vendor client drops unnamed events).
    expect(events.map((event) => event.event)).toEqual(data.map((payload) => payload.type));
    for (const payload of data) messagesStreamEventSchema.parse(payload);
    const start = data[0]?.message as Json;
    expect(start).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, stop_details: null });
    expect(start.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(start.usage).toEqual({ input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 0 });
    expect(data.slice(1)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig==' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Calling.' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_a', name: 'a', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"x":1}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null, stop_details: null }, usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 7 } },
      { type: 'message_stop' },
    ]);
  });

  it('redacted thinking and server tool blocks come whole in their start event', async () => {
    const blocks = [
      { type: 'redacted_thinking', data: 'EmwK==' },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
    ];
    const data = payloads(await readEvents(synthesizeUpstreamResponse(entry('messages', { ...messagesBody, content: blocks }), { stream: true, includeUsage: false })));
    expect(data.slice(1, 5)).toEqual([
      { type: 'content_block_start', index: 0, content_block: blocks[0] },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: blocks[1] },
      { type: 'content_block_stop', index: 1 },
    ]);
  });
});
