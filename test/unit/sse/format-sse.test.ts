import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import {
  CHAT_DONE,
  CHAT_PING,
  MESSAGES_PING,
  encodeChatChunk,
  encodeMessagesEvent,
  encodeStreamError,
  formatSse,
  formatSseComment,
  heartbeatFor,
} from '../../../src/sse/format-sse.js';
import { SSE_HEADERS, createSseHeaders } from '../../../src/sse/sse-headers.js';

describe('formatSse', () => {
  it('writes event, id and a single data line', () => {
    expect(formatSse({ event: 'message_stop', data: '{"type":"message_stop"}' })).toBe(
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    expect(formatSse({ data: '[DONE]' })).toBe('data: [DONE]\n\n');
    expect(formatSse({ event: 'x', id: '42', data: 'y' })).toBe('event: x\nid: 42\ndata: y\n\n');
  });

  it('splits multi-line data into several data lines, whatever the line break', () => {
    expect(formatSse({ data: 'a\nb\r\nc\rd' })).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
    expect(formatSse({ data: '' })).toBe('data: \n\n');
  });

  it('refuses line breaks in event names and ids', () => {
    expect(() => formatSse({ event: 'a\ndata: forged', data: 'x' })).toThrow(TypeError);
    expect(() => formatSse({ event: 'a\r', data: 'x' })).toThrow(TypeError);
    expect(() => formatSse({ id: '1\n2', data: 'x' })).toThrow(TypeError);
  });

  it('writes comments line by line', () => {
    expect(formatSseComment('ping')).toBe(': ping\n\n');
    expect(formatSseComment('a\nb')).toBe(': a\n: b\n\n');
  });
});

describe('encoders', () => {
  it('encodes messages events with the event line equal to the type', () => {
    expect(encodeMessagesEvent({ type: 'content_block_stop', index: 0 } as { type: string })).toBe(
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    );
    expect(() => encodeMessagesEvent({ type: 'a\nb' })).toThrow(TypeError);
  });

  it('encodes chat chunks as data-only events and ends with [DONE]', () => {
    expect(encodeChatChunk({ id: 'c', choices: [] })).toBe('data: {"id":"c","choices":[]}\n\n');
    expect(CHAT_DONE).toBe('data: [DONE]\n\n');
  });

  it('has byte-exact heartbeats per format', () => {
    expect(MESSAGES_PING).toBe('event: ping\ndata: {"type": "ping"}\n\n');
    expect(CHAT_PING).toBe(': ping\n\n');
    expect(heartbeatFor('messages')).toBe(MESSAGES_PING);
    expect(heartbeatFor('chat')).toBe(CHAT_PING);
  });

  it.each([
    ['UPSTREAM_UNAVAILABLE', undefined, 'api_error'],
    ['UPSTREAM_TIMEOUT', undefined, 'timeout_error'],
    ['OVERLOADED', undefined, 'overloaded_error'],
    ['UPSTREAM_ERROR', 'overloaded_error', 'overloaded_error'],
  ] as const)('encodes %s as a messages error event of type %s→%s', (code, messagesType, expected) => {
    const error = new GatewayError(code, 'It broke.', messagesType ? { messagesType } : {});
    const text = encodeStreamError(error, 'messages');
    expect(text.startsWith('event: error\ndata: ')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(true);
    expect(JSON.parse(text.slice('event: error\ndata: '.length))).toEqual({
      type: 'error',
      error: { type: expected, message: 'It broke.' },
    });
  });

  it('encodes a chat error as one data event with all four error keys', () => {
    const text = encodeStreamError(new GatewayError('UPSTREAM_UNAVAILABLE', 'Gone.'), 'chat');
    expect(text.startsWith('data: ')).toBe(true);
    expect(text).not.toContain('event:');
    expect(JSON.parse(text.slice(6))).toEqual({ error: { message: 'Gone.', type: 'server_error', param: null, code: null } });
  });
});

describe('SSE headers', () => {
  it('sets the event-stream type, no-cache and no proxy buffering, and leaves out hop-by-hop headers', () => {
    expect(SSE_HEADERS).toEqual({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    expect(Object.isFrozen(SSE_HEADERS)).toBe(true);
    const headers = createSseHeaders({ 'request-id': 'req_1', 'content-type': 'application/json' });
    expect(headers).toEqual({ 'request-id': 'req_1', ...SSE_HEADERS });
    expect(headers).not.toHaveProperty('connection');
  });
});
