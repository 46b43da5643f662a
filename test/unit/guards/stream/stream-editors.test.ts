/** The stream editors of each format: held text flushed before the part ends, the filter ending on a stop, Responses renumbered and its done events carrying the guarded text. */
import { describe, expect, it } from 'vitest';
import type { Guard, GuardRecord } from '../../../../src/guards/guard-types.js';
import { createChatStreamEditor } from '../../../../src/guards/stream/chat-stream-editor.js';
import { guardEventStream, type StreamEditor } from '../../../../src/guards/stream/guard-event-stream.js';
import { createMessagesStreamEditor } from '../../../../src/guards/stream/messages-stream-editor.js';
import { createResponsesStreamEditor } from '../../../../src/guards/stream/responses-stream-editor.js';
import type { SseEvent } from '../../../../src/sse/parse-sse.js';

const info = { interface: 'chat' as const, model: 'm', principal: undefined };
/** Replaces "cat" with "dog"; blocks at "stop". Holds 8 characters back. */
const guard: Guard = {
  name: 'pets',
  holdback: { chars: 8 },
  output: (view) => {
    if (view.text.includes('stop')) return { action: 'block', reason: 'stopped' };
    const replacements = [...view.text.matchAll(/cat/g)].map((match) => ({ start: match.index, end: match.index + 3, text: 'dog' }));
    return replacements.length ? { action: 'replace', replacements } : { action: 'allow' };
  },
};

async function run(editor: StreamEditor, events: SseEvent[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for (const event of events) {
    out.push(...(await editor.edit(event)));
    if (editor.stopped) break;
  }
  return out;
}
const data = (events: SseEvent[]) => events.map((event) => (event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data) as Record<string, unknown>));

describe('chat stream editor', () => {
  const chunk = (content: string | undefined, finish: string | null = null) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }] }) });

  it('is undefined without a guard on answers', () => {
    expect(createChatStreamEditor([{ name: 'in', input: () => ({ action: 'allow' }) }], info, () => {})).toBeUndefined();
  });

  it('rewrites across deltas and flushes the held text with the finish reason', async () => {
    const records: GuardRecord[] = [];
    const editor = createChatStreamEditor([guard], info, (r) => records.push(...r))!;
    const out = data(await run(editor, [chunk('a c'), chunk('at sat on the mat'), chunk(undefined, 'stop'), { data: '[DONE]' }]));
    const text = out.map((c) => (c === '[DONE]' ? '' : ((c.choices as { delta: { content?: string } }[])[0]?.delta.content ?? ''))).join('');
    expect(text).toBe('a dog sat on the mat');
    expect(out.at(-2)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
    expect(records).toEqual([expect.objectContaining({ guard: 'pets', decision: 'replace' })]);
  });

  it('a stop sends content_filter and [DONE], nothing of the stopping chunk', async () => {
    const editor = createChatStreamEditor([guard], info, () => {})!;
    const out = data(await run(editor, [chunk('one two three four '), chunk('please stop now and more text here')]));
    expect(out.at(-1)).toBe('[DONE]');
    expect(out.at(-2)).toEqual({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'content_filter', logprobs: null }] });
    expect(JSON.stringify(out)).not.toContain('stop now');
  });
});

describe('messages stream editor', () => {
  const ev = (type: string, rest: Record<string, unknown> = {}): SseEvent => ({ event: type, data: JSON.stringify({ type, ...rest }) });
  const delta = (text: string) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });

  it('flushes the held text before content_block_stop', async () => {
    const editor = createMessagesStreamEditor([guard], { ...info, interface: 'messages' }, () => {})!;
    const out = data(await run(editor, [ev('content_block_start', { index: 0 }), delta('my c'), delta('at'), ev('content_block_stop', { index: 0 })]));
    expect(out).toEqual([
      { type: 'content_block_start', index: 0 },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'my dog' } },
      { type: 'content_block_stop', index: 0 },
    ]);
  });

  it('a stop closes the open block and ends with a refusal', async () => {
    const editor = createMessagesStreamEditor([guard], { ...info, interface: 'messages' }, () => {})!;
    const out = data(await run(editor, [ev('content_block_start', { index: 0 }), delta('now stop this, and more')]));
    expect(out.slice(1)).toEqual([
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null }, usage: { output_tokens: 0 } },
      { type: 'message_stop' },
    ]);
  });
});

describe('Responses stream editor', () => {
  let sequence = 0;
  const ev = (type: string, rest: Record<string, unknown> = {}): SseEvent => ({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...rest }) });
  const part = { item_id: 'msg_1', output_index: 0, content_index: 0 };

  it('renumbers, flushes before output_text.done and writes the guarded text into every done event and the final response', async () => {
    sequence = 0;
    const editor = createResponsesStreamEditor([guard], { ...info, interface: 'responses' }, () => {})!;
    const item = { id: 'msg_1', type: 'message', content: [{ type: 'output_text', text: 'a cat' }] };
    const out = data(await run(editor, [
      ev('response.created', { response: { id: 'resp_1', status: 'in_progress', output: [] } }),
      ev('response.output_text.delta', { ...part, delta: 'a ' }),
      ev('response.output_text.delta', { ...part, delta: 'cat' }),
      ev('response.output_text.done', { ...part, text: 'a cat' }),
      ev('response.content_part.done', { ...part, part: { type: 'output_text', text: 'a cat' } }),
      ev('response.output_item.done', { output_index: 0, item }),
      ev('response.completed', { response: { id: 'resp_1', status: 'completed', output: [structuredClone(item)] } }),
    ])) as Record<string, unknown>[];
    expect(out.map((e) => e.sequence_number)).toEqual(out.map((_, index) => index));
    expect(out.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('a dog');
    expect(out.find((e) => e.type === 'response.output_text.done')).toMatchObject({ text: 'a dog' });
    expect(out.find((e) => e.type === 'response.content_part.done')).toMatchObject({ part: { text: 'a dog' } });
    expect(out.find((e) => e.type === 'response.output_item.done')).toMatchObject({ item: { content: [{ text: 'a dog' }] } });
    expect(editor.final).toMatchObject({ status: 'completed', output: [{ content: [{ text: 'a dog' }] }] });
  });

  it('a stop ends with response.incomplete (content_filter), the stored response too', async () => {
    sequence = 0;
    const editor = createResponsesStreamEditor([guard], { ...info, interface: 'responses' }, () => {})!;
    const out = data(await run(editor, [
      ev('response.created', { response: { id: 'resp_1', status: 'in_progress', output: [] } }),
      ev('response.output_text.delta', { ...part, delta: 'now stop it, and then more' }),
    ])) as Record<string, unknown>[];
    expect(out.at(-1)).toMatchObject({ type: 'response.incomplete', sequence_number: 1, response: { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [] } });
    expect(editor.final).toMatchObject({ status: 'incomplete' });
  });
});

describe('guardEventStream', () => {
  it('sends nothing after a stop and returns the source', async () => {
    let returned = false;
    const encoder = new TextEncoder();
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => {
        const chunks = ['data: {"id":"c","choices":[{"index":0,"delta":{"content":"stop here and some more text"},"finish_reason":null}]}\n\n', 'data: {"id":"c","choices":[{"index":0,"delta":{"content":"later"},"finish_reason":null}]}\n\n'];
        return {
          next: async () => (chunks.length ? { done: false, value: encoder.encode(chunks.shift()!) } : { done: true, value: undefined }),
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    let text = '';
    for await (const bytes of guardEventStream(source, createChatStreamEditor([guard], info, () => {})!)) text += new TextDecoder().decode(bytes);
    expect(text).toContain('"finish_reason":"content_filter"');
    expect(text).not.toContain('later');
    expect(returned).toBe(true);
  });
});
