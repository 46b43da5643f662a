/**
 * A shutdown ending a relayed stream: `interrupt(error)` sends what was
 * already read, then one error event in the client's format, destroys the
 * upstream and reports `failed` once; `abandon()` ends it as a client that
 * left.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { encodeChatChunk } from '../../../src/sse/format-sse.js';
import { relaySse, type RelayOutcome } from '../../../src/sse/relay-stream.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { ControlledBody } from './controlled-body.js';

const decoder = new TextDecoder();
const CHUNK = encodeChatChunk({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] });
const stopping = () => new GatewayError('OVERLOADED', 'This server shut down before the stream ended; retry the request.', { messagesType: 'overloaded_error', chatCode: 'overloaded' });

describe('relaySse interrupt', () => {
  it('wakes a pending read with the error event (chat), destroys the upstream, reports failed once', async () => {
    const upstream = new ControlledBody();
    const outcomes: RelayOutcome[] = [];
    const stream = relaySse({ upstream, format: 'chat', signal: new AbortController().signal, heartbeatMs: 0, onEnd: (o) => outcomes.push(o) });
    upstream.push(CHUNK);
    expect(decoder.decode((await stream.next()).value)).toBe(CHUNK);
    const pending = stream.next();
    stream.interrupt(stopping());
    stream.interrupt(stopping());
    const last = decoder.decode((await pending).value);
    expect(JSON.parse(last.slice('data: '.length))).toEqual({ error: { message: expect.stringContaining('shut down'), type: 'server_error', param: null, code: 'overloaded' } });
    expect((await stream.next()).done).toBe(true);
    expect(upstream.destroyedAt).toBeDefined();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'OVERLOADED' }) })]);
  });

  it('ends a translated messages stream with event: error overloaded_error, after the events already read', async () => {
    const upstream = new ControlledBody();
    const stream = relaySse({ upstream, format: 'messages', upstreamFormat: 'chat', transform: createChatToMessagesStream({ model: 'm', id: 'msg_1' }), signal: new AbortController().signal, heartbeatMs: 0 });
    upstream.push(CHUNK);
    let text = decoder.decode((await stream.next()).value);
    // Not waiting: the client is between reads when the shutdown comes.
    stream.interrupt(stopping());
    for await (const chunk of stream) text += decoder.decode(chunk);
    expect(text).toContain('event: message_start');
    expect(text.trimEnd().endsWith('"type":"error","error":{"type":"overloaded_error","message":"This server shut down before the stream ended; retry the request."}}')).toBe(true);
  });

  it('abandon() ends the stream at once and reports aborted', async () => {
    const upstream = new ControlledBody();
    const outcomes: RelayOutcome[] = [];
    const stream = relaySse({ upstream, format: 'chat', signal: new AbortController().signal, heartbeatMs: 0, onClientAbort: 'drain', onEnd: (o) => outcomes.push(o) });
    const pending = stream.next();
    stream.abandon();
    expect((await pending).done).toBe(true);
    expect(upstream.destroyedAt).toBeDefined();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'aborted' })]);
  });
});
