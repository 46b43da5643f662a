/**
 * Azure OpenAI's additions to the chat format (hand-written shapes, see
 * test/fixtures/azure/README.md) through the chat → messages and
 * chat → Responses translations: an empty first chunk with `id:""`, chunks
 * without `delta`, a trailing `content_filter_offsets` chunk after the
 * finish chunk, a second finish chunk, and the `content_filter` finish reason.
 */
import { describe, expect, it } from 'vitest';
import { messagesResponseSchema, messagesStreamEventSchema, type ChatCompletion } from '../../../src/schemas/index.js';
import { parseSse } from '../../../src/sse/parse-sse.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { chatToResponsesResponse } from '../../../src/translate/chat-to-responses-response.js';
import { createChatToResponsesStream } from '../../../src/translate/chat-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { azureJson, azureSse } from '../../helpers/azure-fixtures.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { splitRandomly, toAsyncBody } from '../../helpers/split-randomly.js';
import { accumulateMessagesEvents, decodeEvents, runTransform } from './support/stream-harness.js';

const RESPONSE_ID = 'resp_0123456789abcdef0123456789abcdef';
const answerOptions: ResponseAnswerOptions = {
  id: RESPONSE_ID,
  createdAt: 1_700_000_000,
  model: 'gpt-4o',
  request: {},
  customTools: new Set(),
  includeEncrypted: false,
  seal: (blocks) => `sealed:${JSON.stringify(blocks)}`,
  now: () => 1_700_000_009,
};

async function eventsOf(name: 'stream-text' | 'stream-output-filtered', seed?: number): Promise<SseEvent[]> {
  const text = azureSse(name);
  const events: SseEvent[] = [];
  for await (const event of parseSse(toAsyncBody(seed === undefined ? [Buffer.from(text)] : splitRandomly(text, { seed })))) events.push(event);
  return events;
}

function toMessages(events: readonly SseEvent[]) {
  const decoded = decodeEvents(runTransform(createChatToMessagesStream({ model: 'gpt-4o' }), events, 'chat')).map((event) => event.data as Record<string, unknown>);
  for (const event of decoded) messagesStreamEventSchema.parse(event);
  return decoded;
}

describe('Azure OpenAI streams → messages events', () => {
  for (const seed of [undefined, 3, 11]) {
    const how = seed === undefined ? '' : ` (re-chunked at random, seed ${seed})`;
    it(`one text block, one message_delta, usage from the usage chunk${how}`, async () => {
      const events = toMessages(await eventsOf('stream-text', seed));
      expect(events.map((event) => event.type)).toEqual([
        'message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
      ]);
      const message = accumulateMessagesEvents(events);
      expect(message.content).toEqual([{ type: 'text', text: 'Hello from Azure.' }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage).toMatchObject({ input_tokens: 21, output_tokens: 4 });
    });
  }

  it('never takes the message id from the empty first chunk (`id:""`)', async () => {
    const message = accumulateMessagesEvents(toMessages(await eventsOf('stream-text')));
    expect(message.id).toMatch(/^msg_[0-9a-zA-Z]{16,}$/);
  });

  it('an answer the output filter cut ends with stop_reason refusal', async () => {
    const message = accumulateMessagesEvents(toMessages(await eventsOf('stream-output-filtered')));
    expect(message.content).toEqual([{ type: 'text', text: 'Here is how' }]);
    expect(message.stop_reason).toBe('refusal');
  });
});

describe('Azure OpenAI answers → messages responses', () => {
  it('a whole answer cut by the output filter (content null) is a refusal with no content', () => {
    const response = chatToMessagesResponse(azureJson('completion-output-filtered') as unknown as ChatCompletion, { model: 'gpt-4o', id: 'msg_1' });
    messagesResponseSchema.parse(response);
    expect(response).toMatchObject({ content: [], stop_reason: 'refusal', usage: { input_tokens: 19, output_tokens: 3 } });
  });

  it('a whole answer with filter results keeps its text', () => {
    const response = chatToMessagesResponse(azureJson('completion-text') as unknown as ChatCompletion, { model: 'gpt-4o', id: 'msg_1' });
    expect(response).toMatchObject({ content: [{ type: 'text', text: 'Hello from Azure.' }], stop_reason: 'end_turn' });
  });
});

describe('Azure OpenAI streams → Responses events', () => {
  for (const seed of [undefined, 5]) {
    it(`a completed response with one message${seed === undefined ? '' : ' (re-chunked)'}`, async () => {
      const transform = createChatToResponsesStream(answerOptions);
      const summary = checkResponsesStream(runTransform(transform, await eventsOf('stream-text', seed), 'chat'), RESPONSE_ID);
      expect(summary.terminal.type).toBe('response.completed');
      expect(transform.final?.output).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text: 'Hello from Azure.' }] }]);
      expect(transform.final?.usage).toMatchObject({ input_tokens: 21, output_tokens: 4 });
    });
  }

  it('an answer the output filter cut is incomplete, reason content_filter', async () => {
    const transform = createChatToResponsesStream(answerOptions);
    const summary = checkResponsesStream(runTransform(transform, await eventsOf('stream-output-filtered'), 'chat'), RESPONSE_ID);
    expect(summary.terminal.type).toBe('response.incomplete');
    expect(transform.final?.incomplete_details).toEqual({ reason: 'content_filter' });
  });

  it('a whole answer cut by the output filter is incomplete too', () => {
    const response = chatToResponsesResponse(azureJson('completion-output-filtered') as unknown as ChatCompletion, answerOptions);
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'content_filter' });
  });
});
