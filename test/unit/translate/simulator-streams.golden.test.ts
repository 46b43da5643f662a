/**
 * Golden tests on streams recorded from the simulator
 * (`test/fixtures/simulator/`): cases the real recordings lack, replayed
 * event by event through both stream translators, and checked by the
 * official clients' stream helpers.
 */
import { describe, expect, it } from 'vitest';
import {
  type ChatCompletionChunk,
  type MessagesStreamEvent,
  chatCompletionChunkSchema,
  messagesStreamEventSchema,
} from '../../../src/schemas/index.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { messagesToChatResponse } from '../../../src/translate/messages-to-chat-response.js';
import { createMessagesToChatStream } from '../../../src/translate/messages-to-chat-stream.js';
import { anthropicClient, openAIClient } from './support/official-clients.js';
import {
  accumulateChatChunks,
  accumulateMessagesEvents,
  decodeEvents,
  normalizeArguments,
  readSseFixture,
  runTransform,
} from './support/stream-harness.js';

const ID = 'chatcmpl-sim';
const CREATED = 1_786_752_000;

async function toChat(file: string) {
  const input = await readSseFixture(`simulator/${file}`);
  const encoded = runTransform(createMessagesToChatStream({ model: 'vendora-x', id: ID, created: CREATED, includeUsage: true }), input, 'messages');
  const decoded = decodeEvents(encoded);
  const chunks = decoded.filter((event) => event.data !== '[DONE]' && !('error' in (event.data as object))).map((event) => chatCompletionChunkSchema.parse(event.data));
  return { input, encoded, decoded, chunks };
}

/** One line per chunk. */
function projectChat(chunks: readonly ChatCompletionChunk[]): string[] {
  return chunks.map((chunk) => {
    const [choice] = chunk.choices;
    if (!choice) return `usage ${JSON.stringify(chunk.usage)}`;
    const reason = choice.finish_reason ? ` → ${choice.finish_reason}` : '';
    return `${JSON.stringify(choice.delta)}${reason}`;
  });
}

function expectChatFoldEqualsNonStream(input: Awaited<ReturnType<typeof toChat>>['input'], chunks: readonly ChatCompletionChunk[]): void {
  const message = accumulateMessagesEvents(input.map((event) => JSON.parse(event.data) as Record<string, unknown>));
  const expected = messagesToChatResponse(message, { model: 'vendora-x', id: ID, created: CREATED });
  expect(normalizeArguments(accumulateChatChunks(chunks))).toEqual(normalizeArguments(expected));
}

async function toMessages(file: string) {
  const input = await readSseFixture(`simulator/${file}`);
  const encoded = runTransform(createChatToMessagesStream({ model: 'vendora-x', id: 'msg_sim' }), input, 'chat');
  const events = decodeEvents(encoded).map((decoded) => {
    const event = messagesStreamEventSchema.parse(decoded.data);
    expect(decoded.event).toBe(event.type);
    return event;
  });
  return { input, encoded, events };
}

function projectMessages(events: readonly MessagesStreamEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'content_block_start':
        return `start ${event.index} ${event.content_block.type}`;
      case 'content_block_delta':
        return `delta ${event.index} ${JSON.stringify(event.delta)}`;
      case 'content_block_stop':
        return `stop ${event.index}`;
      case 'message_delta':
        return `message_delta ${String(event.delta.stop_reason)} ${JSON.stringify(event.usage)}`;
      default:
        return event.type;
    }
  });
}

describe('simulator messages streams → chat', () => {
  it('parallel tool use: two tool calls on indexes 0 and 1, finish tool_calls', async () => {
    const { input, chunks } = await toChat('messages-parallel-tool-use.sse');
    const folded = accumulateChatChunks(chunks).choices[0];
    expect(folded?.finish_reason).toBe('tool_calls');
    expect(folded?.message.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_time', { city: 'Paris' }],
    ]);
    expectChatFoldEqualsNonStream(input, chunks);
  });

  it('thinking with a signature, then a tool call', async () => {
    const { input, chunks } = await toChat('messages-thinking-tool-use.sse');
    const message = accumulateChatChunks(chunks).choices[0]?.message;
    expect(message?.reasoning_content?.length).toBeGreaterThan(20);
    expect(message?.thinking_blocks).toEqual([{ type: 'thinking', thinking: message?.reasoning_content, signature: expect.stringMatching(/^Es/) }]);
    expect(message?.content ?? '').not.toContain(message?.reasoning_content ?? '');
    expectChatFoldEqualsNonStream(input, chunks);
  });

  it('adaptive thinking', async () => {
    const { input, chunks } = await toChat('messages-adaptive-thinking.sse');
    expect(projectChat(chunks).slice(0, 2)).toMatchInlineSnapshot(`
      [
        "{"role":"assistant","content":null,"refusal":null,"reasoning_content":""}",
        "{"reasoning_content":"The user is"}",
      ]
    `);
    expectChatFoldEqualsNonStream(input, chunks);
  });

  it('cache read: cached_tokens reported, prompt_tokens includes them', async () => {
    const { input, chunks } = await toChat('messages-cache-read.sse');
    expect(projectChat(chunks).at(-1)).toMatchInlineSnapshot(`"usage {"prompt_tokens":3017,"completion_tokens":74,"total_tokens":3091,"prompt_tokens_details":{"cached_tokens":3004},"completion_tokens_details":{"reasoning_tokens":0}}"`);
    expectChatFoldEqualsNonStream(input, chunks);
  });

  it('forced JSON tool: streams as content text, finish stop, valid JSON', async () => {
    const { input, chunks } = await toChat('messages-json-tool.sse');
    expect(projectChat(chunks)).toMatchInlineSnapshot(`
      [
        "{"role":"assistant","content":"","refusal":null}",
        "{"content":"{\\"answer\\":\\""}",
        "{"content":"You asked about"}",
        "{"content":" \\\\\\"Give me"}",
        "{"content":" a JSON object"}",
        "{"content":" describing Paris\\\\\\""}",
        "{"content":". The safest"}",
        "{"content":" option works best"}",
        "{"content":" with the constraints"}",
        "{"content":" you are working"}",
        "{"content":" under for a"}",
        "{"content":" question like this"}",
        "{"content":". The interesting"}",
        "{"content":" part is shaped"}",
        "{"content":" by the details"}",
        "{"content":" you already have"}",
        "{"content":" before anything else"}",
        "{"content":". A practical"}",
        "{"content":" answer tends to"}",
        "{"content":" rely on a"}",
        "{"content":" simple plan you"}",
        "{"content":" can adjust for"}",
        "{"content":" a question like"}",
        "{"content":" this. Feel"}",
        "{"content":" free to ask"}",
        "{"content":" a follow-up"}",
        "{"content":" question.\\"}"}",
        "{} → stop",
        "usage {"prompt_tokens":79,"completion_tokens":78,"total_tokens":157,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}",
      ]
    `);
    const folded = accumulateChatChunks(chunks).choices[0];
    expect(typeof JSON.parse(folded?.message.content ?? '')).toBe('object');
    expect(folded?.message.tool_calls).toBeUndefined();
    expectChatFoldEqualsNonStream(input, chunks);
  });

  it('max_tokens → finish length', async () => {
    const { input, chunks } = await toChat('messages-max-tokens.sse');
    expect(accumulateChatChunks(chunks).choices[0]?.finish_reason).toBe('length');
    expectChatFoldEqualsNonStream(input, chunks);
  });

  it('a cut stream ends with the chat error form, no [DONE]', async () => {
    const { decoded } = await toChat('messages-cut.sse');
    expect(decoded.at(-1)?.data).toMatchObject({ error: { type: 'server_error', param: null } });
    expect(decoded.some((event) => event.data === '[DONE]')).toBe(false);
  });

  it('the openai stream helper accepts every simulator case', async () => {
    for (const file of ['messages-parallel-tool-use.sse', 'messages-thinking-tool-use.sse', 'messages-adaptive-thinking.sse', 'messages-cache-read.sse', 'messages-json-tool.sse', 'messages-max-tokens.sse']) {
      const { encoded } = await toChat(file);
      const { client } = openAIClient(() => ({ sse: encoded }));
      const final = await client.chat.completions.stream({ model: 'vendora-x', messages: [{ role: 'user', content: 'x' }] }).finalChatCompletion();
      expect(final.choices[0]?.finish_reason, file).toBeTruthy();
    }
  });
});

describe('simulator chat streams → messages', () => {
  it('parallel tool calls', async () => {
    const { input, events } = await toMessages('chat-parallel-tool-calls.sse');
    expect(projectMessages(events)).toMatchInlineSnapshot(`
      [
        "message_start",
        "start 0 tool_use",
        "delta 0 {"type":"input_json_delta","partial_json":"{\\"city\\":\\""}",
        "delta 0 {"type":"input_json_delta","partial_json":"Paris\\"}"}",
        "stop 0",
        "start 1 tool_use",
        "delta 1 {"type":"input_json_delta","partial_json":"{\\"city\\":\\""}",
        "delta 1 {"type":"input_json_delta","partial_json":"Paris\\"}"}",
        "stop 1",
        "message_delta tool_use {"output_tokens":10,"input_tokens":83,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens_details":{"thinking_tokens":0}}",
        "message_stop",
      ]
    `);
    const chunks = input.filter((event) => event.data !== '[DONE]').map((event) => chatCompletionChunkSchema.parse(JSON.parse(event.data)));
    expect(accumulateMessagesEvents(events as unknown as Record<string, unknown>[])).toEqual(
      chatToMessagesResponse(accumulateChatChunks(chunks), { model: 'vendora-x', id: 'msg_sim' }),
    );
  });

  it('the vendor client accepts every simulator case', async () => {
    for (const file of ['chat-parallel-tool-calls.sse', 'chat-json-object.sse']) {
      const { encoded } = await toMessages(file);
      const { client } = anthropicClient(() => ({ sse: encoded }));
      const message = await client.messages.stream({ model: 'vendora-x', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] }).finalMessage();
      expect(message.content.length, file).toBeGreaterThan(0);
    }
  });
});
