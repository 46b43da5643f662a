import { describe, expect, it } from 'vitest';
import { createReasoningSeal } from '../../../src/responses/reasoning-envelope.js';
import { messagesToResponsesResponse } from '../../../src/translate/messages-to-responses-response.js';
import { createMessagesToResponsesStream } from '../../../src/translate/messages-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { accumulateMessagesEvents, readJsonLinesFixture, readSseFixture, runTransform } from './support/stream-harness.js';

const ID = 'resp_fedcba9876543210fedcba9876543210';
const seal = createReasoningSeal('test secret');
const BINDING = { principal: 'p', model: 'vendora-sonnet' };

function options(overrides: Partial<ResponseAnswerOptions> = {}): ResponseAnswerOptions {
  return {
    id: ID,
    createdAt: 1_700_000_000,
    model: 'vendora-sonnet',
    request: { store: false },
    customTools: new Set(),
    includeEncrypted: true,
    seal: (blocks) => seal.seal(blocks, BINDING),
    ...overrides,
  };
}

function run(events: readonly SseEvent[], overrides: Partial<ResponseAnswerOptions> = {}) {
  const transform = createMessagesToResponsesStream(options(overrides));
  const encoded = runTransform(transform, events, 'messages');
  return { transform, summary: checkResponsesStream(encoded, ID) };
}

const payloads = (events: readonly SseEvent[]) => events.map((e) => JSON.parse(e.data) as Record<string, unknown>);

describe('createMessagesToResponsesStream on recorded messages streams', () => {
  it('anthropic-text: one message with the streamed text; usage from message_start/message_delta', async () => {
    const events = await readSseFixture('recorded/anthropic-text.sse');
    const expected = accumulateMessagesEvents(payloads(events));
    const { summary, transform } = run(events);
    expect(summary.terminal.type).toBe('response.completed');
    const text = expected.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(summary.items).toEqual([expect.objectContaining({ type: 'message', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] })]);
    const u = expected.usage;
    const input = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
    expect(summary.terminal.response.usage).toEqual({
      input_tokens: input, input_tokens_details: { cached_tokens: u.cache_read_input_tokens ?? 0 }, output_tokens: u.output_tokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + u.output_tokens,
    });
    expect(transform.final).toEqual(summary.terminal.response);
  });

  it('anthropic-tool-use: the text, then a function_call with the tool_use id and the streamed JSON', async () => {
    const events = await readSseFixture('recorded/anthropic-tool-use.sse');
    const expected = accumulateMessagesEvents(payloads(events));
    const { summary } = run(events);
    const toolUse = expected.content.find((block) => block.type === 'tool_use');
    expect(summary.items.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(summary.items[1]).toMatchObject({ call_id: toolUse?.type === 'tool_use' ? toolUse.id : '', name: 'get_weather', status: 'completed' });
    expect(JSON.parse(summary.items[1]?.arguments)).toEqual(toolUse?.type === 'tool_use' ? toolUse.input : undefined);
  });

  it('anthropic-thinking: a reasoning item whose envelope opens to the signed block, byte for byte', () => {
    const events = readJsonLinesFixture('recorded/anthropic-thinking.data.jsonl');
    const expected = accumulateMessagesEvents(payloads(events));
    const thinking = expected.content[0];
    if (thinking?.type !== 'thinking') throw new Error('fixture starts with a thinking block');
    const { summary, transform } = run(events);
    expect(summary.items.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(summary.items[0]?.summary).toEqual([{ type: 'summary_text', text: thinking.thinking }]);
    expect(seal.open(summary.items[0]?.encrypted_content, BINDING)).toEqual([{ type: 'thinking', thinking: thinking.thinking, signature: thinking.signature }]);
    expect(summary.terminal.response.usage).toEqual({
      input_tokens: 47, input_tokens_details: { cached_tokens: 0 }, output_tokens: 373, output_tokens_details: { reasoning_tokens: 62 }, total_tokens: 420,
    });
    expect(transform.final?.output[0]).toEqual(summary.items[0]);
  });

  it('without include, the client sees no envelope while the stored view keeps it', () => {
    const events = readJsonLinesFixture('recorded/anthropic-thinking.data.jsonl');
    const { summary, transform } = run(events, { includeEncrypted: false });
    expect(summary.items[0]?.encrypted_content).toBeNull();
    expect(seal.open(String((transform.final?.output[0] as { encrypted_content: string }).encrypted_content), BINDING)).toHaveLength(1);
  });

  it('a stream cut before message_stop ends with response.failed', async () => {
    const events = (await readSseFixture('recorded/anthropic-text.sse')).filter((e) => e.event !== 'message_stop' && e.event !== 'message_delta');
    const { summary, transform } = run(events);
    expect(summary.terminal.type).toBe('response.failed');
    expect(transform.final).toBeUndefined();
  });
});

describe('streamed and non-streamed answers agree', () => {
  /** An item without its random id, with its envelope opened. */
  const comparable = (item: Record<string, unknown>) => {
    const { id: _id, encrypted_content: sealed, ...rest } = item;
    return typeof sealed === 'string' ? { ...rest, opened: seal.open(sealed, BINDING) } : rest;
  };
  const fixtures: [string, () => Promise<SseEvent[]> | SseEvent[]][] = [
    ['anthropic-text', () => readSseFixture('recorded/anthropic-text.sse')],
    ['anthropic-tool-use', () => readSseFixture('recorded/anthropic-tool-use.sse')],
    ['anthropic-thinking', () => readJsonLinesFixture('recorded/anthropic-thinking.data.jsonl')],
  ];
  for (const [name, read] of fixtures) {
    it(`${name}: the stream's final Response equals the JSON translation of the same message`, async () => {
      const events = await read();
      const streamed = run(events).transform.final!;
      const json = messagesToResponsesResponse(accumulateMessagesEvents(payloads(events)), { ...options(), now: () => streamed.completed_at ?? 0 });
      const normalise = (response: typeof streamed) => ({ ...response, output: response.output.map((item) => comparable(item)) });
      const withParsedArguments = (response: ReturnType<typeof normalise>) => ({
        ...response,
        output: response.output.map((item) => ('arguments' in item ? { ...item, arguments: JSON.parse(String(item.arguments)) } : item)),
      });
      expect(withParsedArguments(normalise(streamed))).toEqual(withParsedArguments(normalise(json)));
    });
  }
});
