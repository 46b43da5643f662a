/**
 * A streamed Response holds its whole output (for `response.completed` and
 * the store): past `MAX_HELD_OUTPUT_CHARS` (or `maxHeldChars`) the stream
 * fails the way a broken upstream stream does, with `error` and
 * `response.failed`, and nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { toGatewayError } from '../../../src/errors.js';
import { relaySse } from '../../../src/sse/relay-stream.js';
import { createChatToResponsesStream, type ResponsesStreamTransform } from '../../../src/translate/chat-to-responses-stream.js';
import { ITEM_CHARS, MAX_HELD_OUTPUT_CHARS } from '../../../src/translate/held-output.js';
import { createMessagesToResponsesStream } from '../../../src/translate/messages-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { ControlledBody } from '../sse/controlled-body.js';

const ID = 'resp_0123456789abcdef0123456789abcdef';

function answerOptions(overrides: Partial<ResponseAnswerOptions> = {}): ResponseAnswerOptions {
  return { id: ID, createdAt: 1_700_000_000, model: 'client-model', request: {}, customTools: new Set(), includeEncrypted: false, seal: () => 'sealed', ...overrides };
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
});
const DONE: SseEvent = { data: '[DONE]' };

/** Pushes `events` as the relay does: a push that throws ends the stream with `error()`. */
function drive(transform: ResponsesStreamTransform, events: readonly SseEvent[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    try {
      out.push(...(event.data === '[DONE]' ? transform.end() : transform.push(event)));
    } catch (error) {
      out.push(...transform.error(toGatewayError(error)));
      return out;
    }
  }
  return out;
}

type Json = Record<string, unknown>;

describe('a streamed Response past the most output it may hold', () => {
  it('text: the deltas up to the bound go out, then error + response.failed naming it; nothing to store', () => {
    const transform = createChatToResponsesStream(answerOptions({ maxHeldChars: 1000 }));
    const piece = 'a'.repeat(200);
    // The message item counts ITEM_CHARS (256) + 200 per delta: the fourth delta passes 1000, the fifth push fails.
    const encoded = drive(transform, [...Array.from({ length: 10 }, () => chunk({ content: piece })), chunk({}, 'stop'), DONE]);
    const summary = checkResponsesStream(encoded, ID);
    expect(summary.terminal.type).toBe('response.failed');
    const failed = summary.terminal.response as Json;
    expect(failed.status).toBe('failed');
    const message = "The upstream's answer passed 1000 characters of Responses output, the most the gateway holds for one streamed answer; the stream was ended.";
    expect(failed.error).toEqual({ code: 'server_error', message });
    expect(encoded.filter((event) => event.startsWith('event: response.output_text.delta'))).toHaveLength(4);
    expect(encoded.at(-2)).toMatch(/^event: error\n/);
    expect(transform.final).toBeUndefined();
  });

  it('function call arguments count too', () => {
    const transform = createChatToResponsesStream(answerOptions({ maxHeldChars: 2000 }));
    const fragment = (args: string, extra: Json = {}) => chunk({ tool_calls: [{ index: 0, function: { arguments: args, ...extra } }] });
    const events = [chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] })];
    for (let i = 0; i < 20; i++) events.push(fragment(`"k${i}":"${'v'.repeat(190)}",`));
    const encoded = drive(transform, [...events, DONE]);
    const summary = checkResponsesStream(encoded, ID);
    expect(summary.terminal.type).toBe('response.failed');
    expect(((summary.terminal.response as Json).error as Json).message).toContain('passed 2000 characters of Responses output');
    const deltas = encoded.filter((event) => event.startsWith('event: response.function_call_arguments.delta')).length;
    // 256 for the call, then ~200 per fragment: the ninth fragment passes 2000.
    expect(deltas).toBe(9);
  });

  it('each output item counts, however little text it has: an upstream opening call after call is stopped', () => {
    const transform = createChatToResponsesStream(answerOptions({ maxHeldChars: 10 * ITEM_CHARS }));
    const events = Array.from({ length: 1000 }, (_, i) => chunk({ tool_calls: [{ index: i, id: `call_${i}`, type: 'function', function: { name: 'f', arguments: '{}' } }] }));
    const summary = checkResponsesStream(drive(transform, [...events, DONE]), ID);
    expect(summary.terminal.type).toBe('response.failed');
    expect(summary.items.length).toBeLessThanOrEqual(11);
  });

  it('an answer within the bound completes and is stored as before', () => {
    const transform = createChatToResponsesStream(answerOptions({ maxHeldChars: 1000 }));
    const summary = checkResponsesStream(drive(transform, [chunk({ content: 'a'.repeat(700) }), chunk({}, 'stop'), DONE]), ID);
    expect(summary.terminal.type).toBe('response.completed');
    expect(transform.final?.status).toBe('completed');
  });

  it('the default bound is 32 Mi characters: 9 deltas of 4 Mi fail the stream, 7 complete it', () => {
    expect(MAX_HELD_OUTPUT_CHARS).toBe(32 * 1024 * 1024);
    const piece = 'b'.repeat(4 * 1024 * 1024);
    const over = createChatToResponsesStream(answerOptions());
    const failed = drive(over, [...Array.from({ length: 9 }, () => chunk({ content: piece })), chunk({}, 'stop'), DONE]);
    // Short strings only in the assertions: a failure message would otherwise print 32 MiB.
    expect(failed.at(-1)!.slice(0, 30)).toBe('event: response.failed\ndata: {');
    expect(failed.at(-1)!.includes(`passed ${32 * 1024 * 1024} characters of Responses output`)).toBe(true);
    const within = createChatToResponsesStream(answerOptions());
    const completed = drive(within, [...Array.from({ length: 7 }, () => chunk({ content: piece })), chunk({}, 'stop'), DONE]);
    expect(completed.at(-1)!.slice(0, 33)).toBe('event: response.completed\ndata: {');
  });

  it('through the relay (messages upstream): the stream ends with response.failed and the upstream is destroyed', async () => {
    const upstream = new ControlledBody();
    const transform = createMessagesToResponsesStream(answerOptions({ maxHeldChars: 1000 }));
    const stream = relaySse({ upstream, format: 'chat', upstreamFormat: 'messages', transform, signal: new AbortController().signal, heartbeatMs: 0 });
    const event = (name: string, data: Json) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
    upstream.push(event('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }));
    upstream.push(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    for (let i = 0; i < 10; i++) upstream.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'c'.repeat(200) } }));
    let text = '';
    for await (const piece of stream) text += new TextDecoder().decode(piece);
    const events = text.split(/(?<=\n\n)/);
    const summary = checkResponsesStream(events, ID);
    expect(summary.terminal.type).toBe('response.failed');
    expect(upstream.destroyedAt).toBeDefined();
    expect(transform.final).toBeUndefined();
  });
});
