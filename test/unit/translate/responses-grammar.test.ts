/** The grammar checker itself: it accepts a stream written by hand in the shape of recorded vendor streams and refuses each broken variant. */
import { describe, expect, it } from 'vitest';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';

type Json = Record<string, unknown>;
const response = (status: string, output: Json[], extra: Json = {}) => ({ id: 'resp_1', object: 'response', created_at: 1, model: 'm', status, output, incomplete_details: null, ...extra });
const usage = { input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 5 };
const message = { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hi!', annotations: [], logprobs: [] }] };
const call = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'f', arguments: '{}' };

function valid(): Json[] {
  return [
    { type: 'response.created', response: response('in_progress', []) },
    { type: 'response.in_progress', response: response('in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.content_part.added', item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } },
    { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hi', logprobs: [] },
    { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: '!', logprobs: [] },
    { type: 'response.output_text.done', item_id: 'msg_1', output_index: 0, content_index: 0, text: 'Hi!', logprobs: [] },
    { type: 'response.content_part.done', item_id: 'msg_1', output_index: 0, content_index: 0, part: message.content[0] },
    { type: 'response.output_item.done', output_index: 0, item: message },
    { type: 'response.output_item.added', output_index: 1, item: { ...call, status: 'in_progress', arguments: '' } },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 1, delta: '{}' },
    { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 1, arguments: '{}' },
    { type: 'response.output_item.done', output_index: 1, item: call },
    { type: 'response.completed', response: response('completed', [message, call], { usage }) },
  ];
}

function encode(events: Json[]): string[] {
  return events.map((event, i) => `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: i })}\n\n`);
}

describe('checkResponsesStream', () => {
  it('accepts a well-formed stream', () => {
    const summary = checkResponsesStream(encode(valid()), 'resp_1');
    expect(summary.items).toEqual([message, call]);
  });

  const broken: [string, (events: Json[]) => Json[] | string[], RegExp][] = [
    ['a delta before its item was added', (e) => [...e.slice(0, 2), e[4]!, ...e.slice(2)], /no item is open/],
    ['an item added while another is open', (e) => [...e.slice(0, 5), e[9]!, ...e.slice(5)], /still open/],
    ['done text that is not the deltas', (e) => e.map((x, i) => (i === 6 ? { ...x, text: 'Hi' } : x)), /differs from the deltas/],
    ['completed output missing an item', (e) => e.map((x, i) => (i === 13 ? { ...x, response: response('completed', [message], { usage }) } : x)), /output differs/],
    ['usage without reasoning_tokens', (e) => e.map((x, i) => (i === 13 ? { ...x, response: response('completed', [message, call], { usage: { ...usage, output_tokens_details: {} } }) } : x)), /usage lacks/],
    ['another response id', (e) => e.map((x, i) => (i === 13 ? { ...x, response: { ...(x.response as Json), id: 'resp_2' } } : x)), /response id/],
    ['a reused item id', (e) => e.map((x, i) => (i === 9 ? { ...x, item: { ...call, id: 'msg_1', status: 'in_progress', arguments: '' } } : x)), /empty or reused/],
    ['no terminal event', (e) => e.slice(0, -1), /no terminal/],
    ['a function call done without arguments.done', (e) => e.filter((_, i) => i !== 11), /arguments\.done/],
  ];
  for (const [name, mutate, message] of broken) {
    it(`refuses ${name}`, () => {
      expect(() => checkResponsesStream(encode(mutate(valid()) as Json[]), 'resp_1')).toThrow(message);
    });
  }

  it('refuses wrong sequence numbers and an event name that differs from the type', () => {
    const events = encode(valid());
    const swapped = [events[0]!, events[1]!.replace('"sequence_number":1', '"sequence_number":2'), ...events.slice(2)];
    expect(() => checkResponsesStream(swapped)).toThrow(/sequence_number/);
    const renamed = [events[0]!, events[1]!.replace('event: response.in_progress', 'event: response.created'), ...events.slice(2)];
    expect(() => checkResponsesStream(renamed)).toThrow(/differs from type/);
  });
});
