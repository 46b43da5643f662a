/** Whole answers through output guards, per interface: what is read, what a rewrite writes back, and each format's filtered answer. */
import { describe, expect, it } from 'vitest';
import { guardChatAnswer, guardMessagesAnswer, guardResponsesAnswer } from '../../../src/guards/guard-answers.js';
import type { Guard } from '../../../src/guards/guard-types.js';
import { guardStopError } from '../../../src/guards/guard-stop-error.js';

const info = { interface: 'chat' as const, model: 'm', principal: undefined };
/** Upper-cases every text it reads on its channels; blocks text containing "stop". */
const shout = (channels: Guard['outputChannels'] = ['text']): Guard => ({
  name: 'shout',
  outputChannels: channels,
  output: (view) =>
    view.text.includes('stop') ? { action: 'block', reason: 'no stopping' } : { action: 'replace', replacements: [{ start: 0, end: view.text.length, text: view.text.toUpperCase() }] },
});

describe('guardChatAnswer', () => {
  const answer = (content: string) => ({
    choices: [{ index: 0, message: { role: 'assistant', content, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{"a":"x"}' } }] }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3 },
  });

  it('rewrites the content, and tool arguments only for a guard that reads them', async () => {
    const textOnly = answer('hi');
    await guardChatAnswer(textOnly, [shout()], info);
    expect(textOnly.choices[0]!.message).toMatchObject({ content: 'HI', tool_calls: [{ function: { arguments: '{"a":"x"}' } }] });
    const both = answer('hi');
    await guardChatAnswer(both, [shout(['text', 'tool_arguments'])], info);
    expect(both.choices[0]!.message.tool_calls[0]!.function.arguments).toBe('{"A":"X"}');
  });

  it('a block ends every choice with content_filter, no text, the reason as refusal, usage kept', async () => {
    const blocked = answer('please stop');
    const outcome = await guardChatAnswer(blocked, [shout()], info);
    expect(outcome.stop).toEqual({ kind: 'block', guard: 'shout', reason: 'no stopping' });
    expect(blocked).toEqual({ choices: [{ index: 0, message: { role: 'assistant', content: '', refusal: 'no stopping' }, finish_reason: 'content_filter' }], usage: { prompt_tokens: 3 } });
  });
});

describe('guardMessagesAnswer', () => {
  it('rewrites text blocks and leaves tool_use and thinking alone', async () => {
    const answer = { content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'hi' }, { type: 'tool_use', id: 't', name: 'f', input: { a: 'x' } }], stop_reason: 'end_turn' };
    await guardMessagesAnswer(answer, [shout(['text', 'reasoning', 'tool_arguments'])], { ...info, interface: 'messages' });
    expect(answer.content).toEqual([{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'HI' }, { type: 'tool_use', id: 't', name: 'f', input: { a: 'x' } }]);
  });

  it('a block empties the content and ends with a refusal, usage kept', async () => {
    const answer = { content: [{ type: 'text', text: 'stop' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3 } };
    await guardMessagesAnswer(answer, [shout()], { ...info, interface: 'messages' });
    expect(answer).toEqual({ content: [], stop_reason: 'refusal', stop_sequence: null, usage: { input_tokens: 3 } });
  });
});

describe('guardResponsesAnswer', () => {
  it('rewrites output_text parts, function arguments and reasoning summaries on the channels asked for', async () => {
    const answer = {
      status: 'completed',
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'why' }] },
        { type: 'message', content: [{ type: 'output_text', text: 'hi' }] },
        { type: 'function_call', arguments: '{"a":"x"}' },
      ],
    };
    await guardResponsesAnswer(answer, [shout(['text', 'reasoning', 'tool_arguments'])], { ...info, interface: 'responses' });
    expect(answer.output).toEqual([
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'WHY' }] },
      { type: 'message', content: [{ type: 'output_text', text: 'HI' }] },
      { type: 'function_call', arguments: '{"A":"X"}' },
    ]);
  });

  it('a block makes the response incomplete with content_filter and one refusal, usage kept', async () => {
    const answer: Record<string, unknown> = { status: 'completed', completed_at: 5, output: [{ id: 'msg_1', type: 'message', content: [{ type: 'output_text', text: 'stop' }] }], usage: { input_tokens: 3 } };
    await guardResponsesAnswer(answer, [shout()], { ...info, interface: 'responses' });
    expect(answer).toEqual({
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
      completed_at: null,
      output: [{ id: 'msg_1', type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'refusal', refusal: 'no stopping' }] }],
      usage: { input_tokens: 3 },
    });
  });
});

describe('guardStopError', () => {
  it('a block is a 400 content_filter carrying the guard and its reason', () => {
    const error = guardStopError({ kind: 'block', guard: 'deny', reason: 'Not here.' });
    expect([error.code, error.status, error.chatCode]).toEqual(['CONTENT_FILTERED', 400, 'content_filter']);
    expect(error.message).toBe('The request was blocked by guard "deny": Not here.');
  });

  it('a failure is a 503 naming the guard, never the thrown text', () => {
    const error = guardStopError({ kind: 'failed', guard: 'mod', error: new Error('https://secret.internal key sk-1') });
    expect([error.code, error.status, error.chatCode]).toEqual(['GUARD_FAILED', 503, 'guard_failed']);
    expect(error.message).toContain('"mod"');
    expect(error.message).not.toContain('secret.internal');
  });
});
