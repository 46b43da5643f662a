import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { createRedactor } from '../../../src/redact/redactor.js';
import { chatCompletionChunkSchema } from '../../../src/schemas/index.js';
import { parseSse } from '../../../src/sse/parse-sse.js';
import { createChatToResponsesStream } from '../../../src/translate/chat-to-responses-stream.js';
import type { ChatThinkingBlock } from '../../../src/translate/messages-to-chat-response.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { splitRandomly, toAsyncBody } from '../../helpers/split-randomly.js';
import { accumulateChatChunks, readFixture, readSseFixture, runTransform } from './support/stream-harness.js';

const ID = 'resp_0123456789abcdef0123456789abcdef';

function answerOptions(overrides: Partial<ResponseAnswerOptions> = {}): ResponseAnswerOptions {
  return {
    id: ID,
    createdAt: 1_700_000_000,
    model: 'client-model',
    request: {},
    customTools: new Set(),
    includeEncrypted: false,
    seal: (blocks) => `sealed:${JSON.stringify(blocks)}`,
    now: () => 1_700_000_009,
    ...overrides,
  };
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
});
const usageChunk = (usage: Record<string, unknown>): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [], usage }),
});
const DONE: SseEvent = { data: '[DONE]' };

function run(events: readonly SseEvent[], overrides: Partial<ResponseAnswerOptions> = {}) {
  const transform = createChatToResponsesStream(answerOptions(overrides));
  const encoded = runTransform(transform, events, 'chat');
  return { transform, encoded, summary: checkResponsesStream(encoded, ID) };
}

async function eventsOf(path: string, split: boolean): Promise<SseEvent[]> {
  if (!split) return readSseFixture(path);
  const events: SseEvent[] = [];
  for await (const event of parseSse(toAsyncBody(splitRandomly(readFixture(path), { seed: 7 })))) events.push(event);
  return events;
}

describe('createChatToResponsesStream on recorded chat streams', () => {
  for (const split of [false, true]) {
    const how = split ? ' (re-chunked at random)' : '';
    it(`text: one message whose text is the concatenated chat content${how}`, async () => {
      const events = await eventsOf('recorded/openai-text.sse', split);
      const expected = accumulateChatChunks(events.filter((e) => e.data !== '[DONE]').map((e) => chatCompletionChunkSchema.parse(JSON.parse(e.data))));
      const { summary, transform } = run(events);
      expect(summary.terminal.type).toBe('response.completed');
      expect(summary.items).toHaveLength(1);
      expect(summary.items[0]).toMatchObject({ type: 'message', status: 'completed', role: 'assistant' });
      expect(summary.items[0]?.content).toEqual([{ type: 'output_text', text: expected.choices[0]?.message.content, annotations: [], logprobs: [] }]);
      const usage = expected.usage!;
      expect(summary.terminal.response.usage).toEqual({
        input_tokens: usage.prompt_tokens,
        input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
        output_tokens: usage.completion_tokens,
        output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
        total_tokens: usage.total_tokens,
      });
      expect(transform.final).toEqual(summary.terminal.response);
      // Deltas stream as they come: one text delta per non-empty chat content fragment.
      const fragments = events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data).choices[0]?.delta?.content).filter((c) => typeof c === 'string' && c !== '');
      expect(summary.events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta)).toEqual(fragments);
    });

    for (const fixture of ['recorded/openai-tool-call.sse', 'recorded/openai-parallel-tool-calls.sse']) {
      it(`${fixture}: one function_call item per chat tool call, in order${how}`, async () => {
        const events = await eventsOf(fixture, split);
        const expected = accumulateChatChunks(events.filter((e) => e.data !== '[DONE]').map((e) => chatCompletionChunkSchema.parse(JSON.parse(e.data))));
        const { summary } = run(events);
        expect(summary.terminal.type).toBe('response.completed');
        expect(summary.items.map((item) => ({ type: item.type, call_id: item.call_id, name: item.name, arguments: item.arguments, status: item.status }))).toEqual(
          expected.choices[0]!.message.tool_calls!.map((call) => ({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments, status: 'completed' })),
        );
        for (const item of summary.items) expect(item.id).toMatch(/^fc_[0-9a-f]{32,}$/);
        expect(summary.terminal.response.usage.input_tokens).toBe(expected.usage!.prompt_tokens);
      });
    }
  }
});

describe('createChatToResponsesStream', () => {
  it('opens with response.created and in_progress on the first push, with the fixed id and the echoed request', () => {
    const transform = createChatToResponsesStream(answerOptions({ request: { instructions: 'Be brief.', temperature: 0.2, tools: [{ type: 'function', name: 'f' }] } }));
    const first = transform.push(chunk({ role: 'assistant', content: '' }));
    expect(first.map((e) => /^event: (\S+)/.exec(e)?.[1])).toEqual(['response.created', 'response.in_progress']);
    const created = JSON.parse(first[0]!.split('\ndata: ')[1]!);
    expect(created).toMatchObject({ type: 'response.created', sequence_number: 0, response: { id: ID, status: 'in_progress', output: [], instructions: 'Be brief.', temperature: 0.2, model: 'client-model', created_at: 1_700_000_000, usage: null } });
    expect(created.response.tools).toEqual([{ type: 'function', name: 'f' }]);
    expect(created.response).toMatchObject({ top_p: null, max_output_tokens: null, previous_response_id: null, user: null, store: null, tool_choice: 'auto', parallel_tool_calls: true, metadata: {} });
  });

  it('reasoning then a signed block then text: a sealed reasoning item, then the message', () => {
    const block: ChatThinkingBlock = { type: 'thinking', thinking: 'Think. More.', signature: 'SIG' };
    const { summary, transform } = run(
      [chunk({ role: 'assistant', reasoning_content: 'Think.' }), chunk({ reasoning_content: ' More.' }), chunk({ thinking_blocks: [block] }), chunk({ content: 'Answer.' }), chunk({}, 'stop'), DONE],
      { includeEncrypted: true },
    );
    expect(summary.items.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(summary.items[0]).toMatchObject({ id: expect.stringMatching(/^rs_/), summary: [{ type: 'summary_text', text: 'Think. More.' }], encrypted_content: `sealed:${JSON.stringify([block])}` });
    const added = summary.events.find((e) => e.type === 'response.output_item.added' && e.item.type === 'reasoning');
    expect(added?.item.encrypted_content).toBeNull();
    expect(transform.final?.output[0]).toEqual(summary.items[0]);
  });

  it('keeps encrypted_content out of what the client sees unless included, but in the stored view', () => {
    const block: ChatThinkingBlock = { type: 'thinking', thinking: 'T', signature: 'SIG' };
    const { summary, transform } = run([chunk({ reasoning_content: 'T' }), chunk({ thinking_blocks: [block] }), chunk({ content: 'x' }, 'stop'), DONE]);
    expect(summary.items[0]?.encrypted_content).toBeNull();
    expect(summary.terminal.response.output[0].encrypted_content).toBeNull();
    expect(transform.final?.output[0]).toMatchObject({ type: 'reasoning', encrypted_content: `sealed:${JSON.stringify([block])}` });
  });

  it('starts a new reasoning item after a signature; a redacted block is an item of its own', () => {
    const first: ChatThinkingBlock = { type: 'thinking', thinking: 'one', signature: 'S1' };
    const redacted: ChatThinkingBlock = { type: 'redacted_thinking', data: 'ENC' };
    const second: ChatThinkingBlock = { type: 'thinking', thinking: 'two', signature: 'S2' };
    const { summary } = run(
      [
        chunk({ reasoning_content: 'one' }),
        chunk({ thinking_blocks: [first] }),
        chunk({ thinking_blocks: [redacted] }),
        chunk({ reasoning_content: 'two' }),
        chunk({ thinking_blocks: [second] }),
        chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      ],
      { includeEncrypted: true },
    );
    expect(summary.items.map((item) => [item.type, item.summary, item.encrypted_content])).toEqual([
      ['reasoning', [{ type: 'summary_text', text: 'one' }], `sealed:${JSON.stringify([first])}`],
      ['reasoning', [], `sealed:${JSON.stringify([redacted])}`],
      ['reasoning', [{ type: 'summary_text', text: 'two' }], `sealed:${JSON.stringify([second])}`],
      ['function_call', undefined, undefined],
    ]);
  });

  it('unsigned reasoning (a chat upstream) gets encrypted_content null', () => {
    const { summary } = run([chunk({ reasoning_content: 'hmm' }), chunk({ content: 'Hi' }), chunk({}, 'stop'), DONE], { includeEncrypted: true });
    expect(summary.items[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }], encrypted_content: null });
  });

  it('buffers tool calls interleaved by index so items never interleave', () => {
    const call = (index: number, fields: Record<string, unknown>) => chunk({ tool_calls: [{ index, ...fields }] });
    const { summary } = run([
      call(0, { id: 'call_a', type: 'function', function: { name: 'fa', arguments: '{"x":' } }),
      call(1, { id: 'call_b', type: 'function', function: { name: 'fb', arguments: '{"y":2}' } }),
      call(0, { function: { arguments: '1}' } }),
      chunk({}, 'tool_calls'),
      DONE,
    ]);
    expect(summary.items.map((item) => [item.call_id, item.name, item.arguments])).toEqual([
      ['call_a', 'fa', '{"x":1}'],
      ['call_b', 'fb', '{"y":2}'],
    ]);
  });

  it('text that arrives while a call is incomplete waits for it, as a message after the call', () => {
    const transform = createChatToResponsesStream(answerOptions());
    const deltas = (events: readonly string[]) => events.filter((e) => e.includes('output_text.delta')).map((e) => JSON.parse(e.split('data: ')[1]!).delta);
    const before = [
      ...transform.push(chunk({ content: 'Let me look.' })),
      ...transform.push(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"q":' } }] })),
      ...transform.push(chunk({ content: ' (more)' })),
    ];
    expect(deltas(before)).toEqual(['Let me look.']);
    const after = [...transform.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '"a"}' } }] })), ...transform.push(chunk({}, 'tool_calls')), ...transform.end()];
    expect(deltas(after)).toEqual([' (more)']);
    const summary = checkResponsesStream([...before, ...after], ID);
    expect(summary.items.map((item) => item.type)).toEqual(['message', 'function_call', 'message']);
    expect(summary.items.map((item) => item.content?.[0].text ?? item.arguments)).toEqual(['Let me look.', '{"q":"a"}', ' (more)']);
  });

  it('a call of a custom tool becomes a custom_tool_call whose input is sent whole', () => {
    const args = JSON.stringify({ input: '*** Begin Patch\n*** End Patch\n' });
    const { summary } = run(
      [
        chunk({ tool_calls: [{ index: 0, id: 'call_p', type: 'function', function: { name: 'apply_patch', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 10) } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(10) } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      ],
      { customTools: new Set(['apply_patch']) },
    );
    expect(summary.items).toEqual([{ id: expect.stringMatching(/^ctc_/), type: 'custom_tool_call', status: 'completed', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' }]);
    expect(summary.events.filter((e) => e.type === 'response.custom_tool_call_input.delta').map((e) => e.delta)).toEqual(['*** Begin Patch\n*** End Patch\n']);
  });

  it('a refusal streams as a refusal part', () => {
    const { summary } = run([chunk({ refusal: 'I cannot' }), chunk({ refusal: ' help.' }), chunk({}, 'stop'), DONE]);
    expect(summary.items[0]?.content).toEqual([{ type: 'refusal', refusal: 'I cannot help.' }]);
  });

  it('finish_reason length → response.incomplete (max_output_tokens), the cut message incomplete', () => {
    const { summary, transform } = run([chunk({ content: 'Once upon' }), chunk({}, 'length'), usageChunk({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }), DONE]);
    expect(summary.terminal.type).toBe('response.incomplete');
    expect(summary.terminal.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, completed_at: null });
    expect(summary.items[0]?.status).toBe('incomplete');
    expect(transform.final?.status).toBe('incomplete');
  });

  it('finish_reason content_filter → response.incomplete (content_filter)', () => {
    const { summary } = run([chunk({ content: 'x' }), chunk({}, 'content_filter'), DONE]);
    expect(summary.terminal.response.incomplete_details).toEqual({ reason: 'content_filter' });
  });

  it('usage is complete even when the upstream sent none or sent no details', () => {
    expect(run([chunk({ content: 'x' }, 'stop'), DONE]).summary.terminal.response.usage).toEqual({
      input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0,
    });
    const withDetails = run([chunk({ content: 'x' }, 'stop'), usageChunk({ prompt_tokens: 100, completion_tokens: 30, total_tokens: 130, prompt_tokens_details: { cached_tokens: 64 }, completion_tokens_details: { reasoning_tokens: 12 } }), DONE]);
    expect(withDetails.summary.terminal.response.usage).toEqual({
      input_tokens: 100, input_tokens_details: { cached_tokens: 64 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 130,
    });
  });

  it('an answer with nothing in it still has one (empty) message', () => {
    const { summary } = run([chunk({ role: 'assistant', content: '' }), chunk({}, 'stop'), DONE]);
    expect(summary.items).toEqual([{ id: expect.stringMatching(/^msg_/), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: '', annotations: [], logprobs: [] }] }]);
  });

  it('final is set only by the call that produces the terminal event', () => {
    const transform = createChatToResponsesStream(answerOptions());
    transform.push(chunk({ content: 'x' }));
    transform.push(chunk({}, 'stop'));
    expect(transform.final).toBeUndefined();
    const last = transform.end();
    expect(last.at(-1)).toMatch(/^event: response\.completed\n/);
    expect(transform.final).toMatchObject({ id: ID, status: 'completed', completed_at: 1_700_000_009 });
    expect(transform.end()).toEqual([]);
  });

  it('an upstream failure mid-stream: error (flat and nested) then response.failed with the items so far', () => {
    const transform = createChatToResponsesStream(answerOptions());
    const out = [
      ...transform.push(chunk({ content: 'Partial' })),
      ...transform.error(new GatewayError('UPSTREAM_ERROR', 'The upstream connection was reset.')),
    ];
    const summary = checkResponsesStream(out, ID);
    const error = summary.events.at(-2)!;
    expect(error).toMatchObject({ type: 'error', code: 'server_error', message: 'The upstream connection was reset.', param: null, error: { type: 'server_error', code: 'server_error', message: 'The upstream connection was reset.', param: null } });
    expect(summary.terminal.response).toMatchObject({ status: 'failed', error: { code: 'server_error', message: 'The upstream connection was reset.' } });
    expect(summary.terminal.response.output).toEqual([expect.objectContaining({ type: 'message', status: 'incomplete', content: [expect.objectContaining({ text: 'Partial' })] })]);
    expect(transform.final).toBeUndefined();
    expect(transform.push(chunk({ content: 'late' }))).toEqual([]);
  });

  it('a failure before any event still opens the stream first; a rate limit keeps its code', () => {
    const transform = createChatToResponsesStream(answerOptions());
    const out = transform.error(new GatewayError('RATE_LIMITED', 'Slow down.'));
    const summary = checkResponsesStream(out, ID);
    expect(summary.events.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(summary.terminal.response.error).toEqual({ code: 'rate_limit_exceeded', message: 'Slow down.' });
  });

  it('an in-band chat error chunk fails the response, and secrets in error text are redacted', () => {
    const secret = 'sk-upstream-secret-0123456789';
    const transform = createChatToResponsesStream(answerOptions());
    transform.useRedactor(createRedactor([secret]));
    const out = [
      ...transform.push(chunk({ content: 'x' })),
      ...transform.push({ data: JSON.stringify({ error: { message: `bad key ${secret}`, type: 'server_error' } }) }),
    ];
    const summary = checkResponsesStream(out, ID);
    expect(summary.terminal.type).toBe('response.failed');
    expect(out.join('')).not.toContain('sk-upstream-secret');
    expect(summary.terminal.response.error.message).toContain('[redacted]');
  });
});

describe('createChatToResponsesStream on malformed upstream chunks', () => {
  it('skips entries that are not objects and fails on data that is not JSON, without throwing', () => {
    const transform = createChatToResponsesStream(answerOptions());
    const out = [
      ...transform.push({ data: JSON.stringify({ choices: [null, 3] }) }),
      ...transform.push({ data: JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [null, { index: 0, id: 'c', function: null }] }, finish_reason: null }] }) }),
      ...transform.push({ data: 'not json' }),
    ];
    const summary = checkResponsesStream(out, ID);
    expect(summary.terminal.type).toBe('response.failed');
  });

  it('adds a call once its name arrives; a call that never gets one is left out', () => {
    const named = run([
      chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'late_name', arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { arguments: '{}' } }] }),
      chunk({ content: 'after' }),
      chunk({}, 'tool_calls'),
      DONE,
    ]);
    expect(named.summary.items.map((item) => [item.type, item.name, item.arguments])).toEqual([
      ['function_call', 'late_name', '{"a":1}'],
      ['message', undefined, undefined],
    ]);
  });
});
