import { describe, expect, it } from 'vitest';
import { classifyUpstreamEvent, errorFromUpstreamEvent } from '../../../src/sse/classify-upstream-event.js';

describe('classifyUpstreamEvent', () => {
  it('recognises the terminal and error events of each format', () => {
    expect(classifyUpstreamEvent({ event: 'message_stop', data: '{}' }, 'messages')).toBe('terminal');
    expect(classifyUpstreamEvent({ event: 'error', data: '{}' }, 'messages')).toBe('error');
    expect(classifyUpstreamEvent({ event: 'message_delta', data: '{}' }, 'messages')).toBe('data');
    expect(classifyUpstreamEvent({ event: 'brand_new_event', data: '{}' }, 'messages')).toBe('data');
    expect(classifyUpstreamEvent({ data: '[DONE]' }, 'chat')).toBe('terminal');
    expect(classifyUpstreamEvent({ data: ' {"error": {"message":"x"}}' }, 'chat')).toBe('error');
    expect(classifyUpstreamEvent({ event: 'error', data: '{}' }, 'chat')).toBe('error');
    expect(classifyUpstreamEvent({ data: '{"id":"c","choices":[{"delta":{"content":"\\"error\\":"}}]}' }, 'chat')).toBe('data');
  });
});

describe('errorFromUpstreamEvent', () => {
  it('keeps the vendor type and message of a messages error event', () => {
    const error = errorFromUpstreamEvent(
      { event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' },
      'messages',
    );
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', status: 529, messagesType: 'overloaded_error', message: 'Overloaded' });
  });

  it('keeps the type and code of a chat error chunk', () => {
    const error = errorFromUpstreamEvent({ data: '{"error":{"message":"boom","type":"server_error","code":"x1"}}' }, 'chat');
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', status: 502, chatType: 'server_error', chatCode: 'x1', message: 'boom' });
  });

  it('names the upstream when the payload says nothing useful', () => {
    const error = errorFromUpstreamEvent({ event: 'error', data: 'not json' }, 'messages', { name: 'vendor-eu' });
    expect(error.message).toBe('Upstream "vendor-eu" reported an error mid-stream.');
    expect(error.status).toBe(502);
  });
});
