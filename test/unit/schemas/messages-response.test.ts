import { describe, expect, it } from 'vitest';
import {
  contentBlockDeltaEventSchema,
  contentBlockStartEventSchema,
  countTokensResponseSchema,
  fileDeletedSchema,
  fileListSchema,
  fileMetadataSchema,
  messageDeltaEventSchema,
  messageStartEventSchema,
  messagesErrorBodySchema,
  messagesModelListSchema,
  messagesModelSchema,
  messagesResponseSchema,
  messagesStreamEventSchema,
  messagesUsageSchema,
  pingEventSchema,
  streamErrorEventSchema,
  type MessagesStreamEvent,
} from '../../../src/schemas/index.js';
import { readJsonLinesFixture, readSseFixture } from './read-fixture.js';

/** PROTOCOLS A.5: a real non-streaming body. */
const recordedMessage = {
  id: 'msg_011CcnjVcgeY1HxJJJBmgZBe',
  type: 'message',
  role: 'assistant',
  model: 'claude-opus-4-7',
  content: [{ type: 'text', text: 'OK' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  stop_details: null,
  usage: {
    input_tokens: 21,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: 6,
    output_tokens_details: { thinking_tokens: 0 },
    service_tier: 'standard',
    inference_geo: 'global',
  },
};

describe('messagesResponseSchema (A.5)', () => {
  it('accepts the recorded body, keeping every key', () => {
    expect(messagesResponseSchema.parse(recordedMessage)).toEqual(recordedMessage);
  });

  it('accepts thinking, redacted thinking, tool use, citations and server-tool blocks', () => {
    const body = {
      ...recordedMessage,
      content: [
        { type: 'thinking', thinking: 'Let me see.', signature: 'sig' },
        { type: 'redacted_thinking', data: 'EmwK' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        { type: 'text', text: 'Cited.', citations: [{ type: 'web_search_result_location', url: 'https://x' }] },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: {}, caller: { type: 'direct' } },
      ],
      stop_reason: 'tool_use',
      container: null,
    };
    expect(messagesResponseSchema.parse(body)).toEqual(body);
  });

  it.each(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded'])(
    'accepts stop_reason %s',
    (reason) => {
      expect(messagesResponseSchema.safeParse({ ...recordedMessage, stop_reason: reason }).success).toBe(true);
    },
  );

  it('rejects an unknown stop_reason and malformed known blocks', () => {
    expect(messagesResponseSchema.safeParse({ ...recordedMessage, stop_reason: 'stop' }).success).toBe(false);
    const badText = { ...recordedMessage, content: [{ type: 'text' }] };
    const badToolUse = { ...recordedMessage, content: [{ type: 'tool_use', id: 't', name: 'f', input: '{}' }] };
    expect(messagesResponseSchema.safeParse(badText).success).toBe(false);
    expect(messagesResponseSchema.safeParse(badToolUse).success).toBe(false);
  });

  it.each(['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage'])('requires %s', (key) => {
    const body: Record<string, unknown> = { ...recordedMessage };
    delete body[key];
    expect(messagesResponseSchema.safeParse(body).success).toBe(false);
  });

  it('requires input_tokens and output_tokens in usage, and allows null for the rest', () => {
    expect(messagesUsageSchema.safeParse({ input_tokens: 1 }).success).toBe(false);
    expect(messagesUsageSchema.safeParse({ output_tokens: 1 }).success).toBe(false);
    const usage = { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: null, cache_read_input_tokens: null, server_tool_use: null };
    expect(messagesUsageSchema.parse(usage)).toEqual(usage);
  });
});

describe('messagesStreamEventSchema (A.6)', () => {
  function expectValid(event: unknown): MessagesStreamEvent {
    const result = messagesStreamEventSchema.safeParse(event);
    expect(result.error?.issues ?? []).toEqual([]);
    return result.data as MessagesStreamEvent;
  }

  it.each(['anthropic-text.sse', 'anthropic-tool-use.sse'])('accepts every event of the recorded %s', (name) => {
    const events = readSseFixture(name);
    expect(events.length).toBeGreaterThan(5);
    for (const { event, data } of events) {
      const parsed = expectValid(JSON.parse(data));
      expect(parsed.type).toBe(event);
    }
  });

  it('accepts every event of the recorded thinking stream (data lines with padding)', () => {
    const payloads = readJsonLinesFixture('anthropic-thinking.data.jsonl');
    const types = payloads.map((payload) => expectValid(payload).type);
    expect(types[0]).toBe('message_start');
    expect(types).toContain('ping');
    expect(types.at(-1)).toBe('message_stop');
  });

  it('accepts the documented empty start blocks and every delta kind', () => {
    const starts = [
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'redacted_thinking', data: 'xx' },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
    ];
    for (const block of starts) expectValid({ type: 'content_block_start', index: 0, content_block: block });
    const deltas = [
      { type: 'text_delta', text: 'a' },
      { type: 'input_json_delta', partial_json: '' },
      { type: 'thinking_delta', thinking: 'b' },
      { type: 'signature_delta', signature: 'c' },
      { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'x' } },
    ];
    for (const delta of deltas) expectValid({ type: 'content_block_delta', index: 1, delta });
  });

  it('accepts ping, error and a message_delta with the newer usage fields', () => {
    expect(pingEventSchema.parse({ type: 'ping' })).toEqual({ type: 'ping' });
    const error = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    expect(streamErrorEventSchema.parse(error)).toEqual(error);
    const delta = {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null, stop_details: null, container: null },
      usage: { output_tokens: 30, input_tokens: 10, cache_read_input_tokens: 0, server_tool_use: { web_search_requests: 1 } },
    };
    expect(messageDeltaEventSchema.parse(delta)).toEqual(delta);
  });

  it('requires usage.output_tokens in message_delta', () => {
    const delta = { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null } };
    expect(messageDeltaEventSchema.safeParse(delta).success).toBe(false);
    expect(messageDeltaEventSchema.safeParse({ ...delta, usage: {} }).success).toBe(false);
    expect(messageDeltaEventSchema.safeParse({ ...delta, usage: { output_tokens: 3 } }).success).toBe(true);
  });

  it('requires usage and a message in message_start', () => {
    const message = { ...recordedMessage, content: [], stop_reason: null };
    expect(messageStartEventSchema.safeParse({ type: 'message_start', message }).success).toBe(true);
    const { usage: _usage, ...noUsage } = message;
    expect(messageStartEventSchema.safeParse({ type: 'message_start', message: noUsage }).success).toBe(false);
    expect(messageStartEventSchema.safeParse({ type: 'message_start' }).success).toBe(false);
  });

  it('rejects unknown deltas, a missing index and unknown event types', () => {
    expect(contentBlockDeltaEventSchema.safeParse({ type: 'content_block_delta', index: 0, delta: { type: 'x_delta' } }).success).toBe(false);
    expect(contentBlockStartEventSchema.safeParse({ type: 'content_block_start', content_block: { type: 'text', text: '' } }).success).toBe(false);
    expect(messagesStreamEventSchema.safeParse({ type: 'message_end' }).success).toBe(false);
    expect(messagesStreamEventSchema.safeParse({ type: 'content_block_delta', index: -1, delta: { type: 'text_delta', text: '' } }).success).toBe(false);
  });
});

describe('error, token count, models and files', () => {
  it('accepts the recorded error body (A.7) and requires error.type and message', () => {
    const body = {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 205351 tokens > 200000 maximum' },
      request_id: 'req_011CV5J4YZo4J3KLTDZgDN7S',
    };
    expect(messagesErrorBodySchema.parse(body)).toEqual(body);
    expect(messagesErrorBodySchema.safeParse({ type: 'error', error: { type: 'api_error' } }).success).toBe(false);
    expect(messagesErrorBodySchema.safeParse({ error: { type: 'api_error', message: 'x' } }).success).toBe(false);
  });

  it('validates the count_tokens result', () => {
    expect(countTokensResponseSchema.parse({ input_tokens: 2095 })).toEqual({ input_tokens: 2095 });
    expect(countTokensResponseSchema.safeParse({ input_tokens: 1.5 }).success).toBe(false);
    expect(countTokensResponseSchema.safeParse({}).success).toBe(false);
  });

  it('accepts the documented model list and requires its paging keys', () => {
    const model = { type: 'model', id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' };
    const list = { data: [model], has_more: false, first_id: model.id, last_id: model.id };
    expect(messagesModelListSchema.parse(list)).toEqual(list);
    expect(messagesModelListSchema.safeParse({ data: [model] }).success).toBe(false);
    expect(messagesModelSchema.safeParse({ ...model, display_name: undefined }).success).toBe(false);
  });

  it('accepts file metadata, a list serving both paging styles, and a deletion', () => {
    const file = {
      type: 'file',
      id: 'file_011CNha8iCJcU1wXNR6q4V8w',
      filename: 'document.pdf',
      mime_type: 'application/pdf',
      size_bytes: 102400,
      created_at: '2025-04-15T18:37:24.100435Z',
      downloadable: false,
    };
    expect(fileMetadataSchema.parse(file)).toEqual(file);
    const list = { data: [file], has_more: false, first_id: file.id, last_id: file.id, next_page: null };
    expect(fileListSchema.parse(list)).toEqual(list);
    expect(fileListSchema.safeParse({ data: [file], next_page: null }).success).toBe(false);
    expect(fileDeletedSchema.parse({ id: file.id, type: 'file_deleted' })).toEqual({ id: file.id, type: 'file_deleted' });
    expect(fileMetadataSchema.safeParse({ ...file, size_bytes: -1 }).success).toBe(false);
  });
});
