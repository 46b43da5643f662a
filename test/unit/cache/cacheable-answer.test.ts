/**
 * Which complete answers may be stored: only clean ends (PROTOCOLS A.5
 * `stop_reason`, B.3 `finish_reason`), no refusals, something said.
 */
import { describe, expect, it } from 'vitest';
import { isCacheableAnswer } from '../../../src/cache/cacheable-answer.js';

type Json = Record<string, unknown>;

const chat = (choices: Json[]): Json => ({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
const choice = (message: Json, finish: unknown = 'stop', index = 0): Json => ({ index, message: { role: 'assistant', refusal: null, ...message }, logprobs: null, finish_reason: finish });
const call = (args: string): Json => ({ id: 'call_1', type: 'function', function: { name: 'f', arguments: args } });

const message = (content: Json[], stop: unknown = 'end_turn'): Json => ({
  id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
});
const text = (value = 'Hello'): Json => ({ type: 'text', text: value });
const toolUse: Json = { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} };
const thinking: Json = { type: 'thinking', thinking: 'hmm', signature: 'sig' };

describe('isCacheableAnswer: chat', () => {
  it.each([
    ['text that stopped', chat([choice({ content: 'Hi' })])],
    ['tool calls', chat([choice({ content: null, tool_calls: [call('{"a":1}')] }, 'tool_calls')])],
    ['tool calls with blank arguments', chat([choice({ content: null, tool_calls: [call('')] }, 'tool_calls')])],
    ['a legacy function call', chat([choice({ content: null, function_call: { name: 'f', arguments: '{}' } }, 'function_call')])],
    ['two clean choices', chat([choice({ content: 'a' }), choice({ content: 'b' }, 'stop', 1)])],
  ])('stores %s', (_name, body) => {
    expect(isCacheableAnswer('chat', body)).toBe(true);
  });

  it.each([
    ['cut by the token limit (length)', chat([choice({ content: 'Hi' }, 'length')])],
    ['stopped by a filter (content_filter)', chat([choice({ content: 'Hi' }, 'content_filter')])],
    ['an unknown finish reason', chat([choice({ content: 'Hi' }, 'paused')])],
    ['no finish reason', chat([choice({ content: 'Hi' }, null)])],
    ['a refusal', chat([choice({ content: null, refusal: "I can't help with that." })])],
    ['a refusal beside text', chat([choice({ content: 'Well', refusal: 'No.' })])],
    ['one clean choice and one cut', chat([choice({ content: 'a' }), choice({ content: 'b' }, 'length', 1)])],
    ['no choices', chat([])],
    ['an empty answer', chat([choice({ content: '' })])],
    ['reasoning alone', chat([choice({ content: null, reasoning_content: 'hmm' })])],
    ['tool arguments cut short', chat([choice({ content: null, tool_calls: [call('{"a":')] }, 'tool_calls')])],
    ['tool arguments that are not an object', chat([choice({ content: null, tool_calls: [call('[1]')] }, 'tool_calls')])],
    ['no choices list', { id: 'x', object: 'chat.completion' }],
    ['a choice without a message', chat([{ index: 0, finish_reason: 'stop' }])],
  ])('does not store %s', (_name, body) => {
    expect(isCacheableAnswer('chat', body)).toBe(false);
  });
});

describe('isCacheableAnswer: messages', () => {
  it.each([
    ['text that ended the turn', message([text()])],
    ['a tool use', message([text(), toolUse], 'tool_use')],
    ['a matched stop sequence', message([text()], 'stop_sequence')],
    ['thinking then text', message([thinking, text()])],
    ['a tool use alone', message([toolUse], 'tool_use')],
  ])('stores %s', (_name, body) => {
    expect(isCacheableAnswer('messages', body)).toBe(true);
  });

  it.each([
    ['cut by the token limit (max_tokens)', message([text()], 'max_tokens')],
    ['cut by the context window', message([text()], 'model_context_window_exceeded')],
    ['a refusal', message([text('I cannot')], 'refusal')],
    ['a paused turn (pause_turn)', message([text()], 'pause_turn')],
    ['an unknown stop reason', message([text()], 'later')],
    ['no stop reason', message([text()], null)],
    ['no content', message([])],
    ['an empty text', message([text('')])],
    ['thinking alone', message([thinking, { type: 'redacted_thinking', data: 'x' }])],
    ['not a message', { type: 'error', error: { type: 'api_error', message: 'x' } }],
    ['a content list with a block that has no type', message([{ text: 'x' }])],
  ])('does not store %s', (_name, body) => {
    expect(isCacheableAnswer('messages', body)).toBe(false);
  });
});
