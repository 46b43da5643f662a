/**
 * Golden tests: real recorded chat streams replayed through
 * `createChatToMessagesStream`, compared event by event; every event must
 * pass the messages event schema, be named after its type, follow the
 * order the vendor client requires, and fold into the non-streamed
 * translation of the folded input.
 */
import { describe, expect, it } from 'vitest';
import { chatCompletionChunkSchema, messagesStreamEventSchema, type MessagesStreamEvent } from '../../../src/schemas/index.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import { accumulateChatChunks, accumulateMessagesEvents, decodeEvents, readSseFixture, runTransform } from './support/stream-harness.js';

const ID = 'msg_golden';
const MODEL = 'vendora-opus-4-8';

function translate(events: readonly SseEvent[]): MessagesStreamEvent[] {
  const encoded = runTransform(createChatToMessagesStream({ model: MODEL, id: ID }), events, 'chat');
  return decodeEvents(encoded).map((decoded) => {
    const event = messagesStreamEventSchema.parse(decoded.data);
    expect(decoded.event).toBe(event.type);
    return event;
  });
}

/** The vendor client's order: start, blocks 0..n-1 each start/delta…/stop, message_delta, message_stop. */
function expectVendorOrder(events: readonly MessagesStreamEvent[]): void {
  expect(events[0]?.type).toBe('message_start');
  expect(events.at(-2)?.type).toBe('message_delta');
  expect(events.at(-1)?.type).toBe('message_stop');
  let open: number | undefined;
  let next = 0;
  for (const event of events.slice(1, -2)) {
    if (event.type === 'content_block_start') {
      expect(open).toBeUndefined();
      expect(event.index).toBe(next);
      open = next++;
    } else if (event.type === 'content_block_delta') {
      expect(event.index).toBe(open);
    } else if (event.type === 'content_block_stop') {
      expect(event.index).toBe(open);
      open = undefined;
    } else {
      throw new Error(`unexpected ${event.type} between message_start and message_delta`);
    }
  }
  expect(open).toBeUndefined();
}

function expectFoldedEqualsNonStream(input: readonly SseEvent[], events: readonly MessagesStreamEvent[]): void {
  const chunks = input.filter((event) => event.data !== '[DONE]').map((event) => chatCompletionChunkSchema.parse(JSON.parse(event.data)));
  const expected = chatToMessagesResponse(accumulateChatChunks(chunks), { model: MODEL, id: ID });
  expect(accumulateMessagesEvents(events as unknown as Record<string, unknown>[])).toEqual(expected);
}

/** Compact view: one line per event. */
function project(events: readonly MessagesStreamEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'content_block_start':
        return `start ${event.index} ${JSON.stringify(event.content_block)}`;
      case 'content_block_delta':
        return `delta ${event.index} ${JSON.stringify(event.delta)}`;
      case 'content_block_stop':
        return `stop ${event.index}`;
      case 'message_start':
        return `message_start ${JSON.stringify(event.message)}`;
      case 'message_delta':
        return `message_delta ${JSON.stringify(event.delta)} ${JSON.stringify(event.usage)}`;
      default:
        return event.type;
    }
  });
}

describe('chat → messages stream, recorded fixtures', () => {
  it('openai-text.sse: one text block, end_turn, usage in message_delta', async () => {
    const input = await readSseFixture('recorded/openai-text.sse');
    const events = translate(input);
    expectVendorOrder(events);
    expect(project(events).slice(0, 4)).toMatchInlineSnapshot(`
      [
        "message_start {"id":"msg_golden","type":"message","role":"assistant","model":"vendora-opus-4-8","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}",
        "start 0 {"type":"text","text":""}",
        "delta 0 {"type":"text_delta","text":"I'm"}",
        "delta 0 {"type":"text_delta","text":" unable"}",
      ]
    `);
    expect(project(events).slice(-4)).toMatchInlineSnapshot(`
      [
        "delta 0 {"type":"text_delta","text":"."}",
        "stop 0",
        "message_delta {"stop_reason":"end_turn","stop_sequence":null} {"output_tokens":30,"input_tokens":14,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens_details":{"thinking_tokens":0}}",
        "message_stop",
      ]
    `);
    expect(events.filter((event) => event.type === 'content_block_delta')).toHaveLength(30);
    expectFoldedEqualsNonStream(input, events);
  });

  it('openai-tool-call.sse: one tool_use block with argument fragments', async () => {
    const input = await readSseFixture('recorded/openai-tool-call.sse');
    const events = translate(input);
    expectVendorOrder(events);
    expect(project(events)).toMatchInlineSnapshot(`
      [
        "message_start {"id":"msg_golden","type":"message","role":"assistant","model":"vendora-opus-4-8","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}",
        "start 0 {"type":"tool_use","id":"call_4XzlGBLtUe9dy3GVNV4jhq7h","name":"get_weather","input":{}}",
        "delta 0 {"type":"input_json_delta","partial_json":"{\\""}",
        "delta 0 {"type":"input_json_delta","partial_json":"city"}",
        "delta 0 {"type":"input_json_delta","partial_json":"\\":\\""}",
        "delta 0 {"type":"input_json_delta","partial_json":"New"}",
        "delta 0 {"type":"input_json_delta","partial_json":" York"}",
        "delta 0 {"type":"input_json_delta","partial_json":" City"}",
        "delta 0 {"type":"input_json_delta","partial_json":"\\"}"}",
        "stop 0",
        "message_delta {"stop_reason":"tool_use","stop_sequence":null} {"output_tokens":16,"input_tokens":44,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens_details":{"thinking_tokens":0}}",
        "message_stop",
      ]
    `);
    expectFoldedEqualsNonStream(input, events);
  });

  it('openai-parallel-tool-calls.sse: two tool calls kept apart as blocks 0 and 1', async () => {
    const input = await readSseFixture('recorded/openai-parallel-tool-calls.sse');
    const events = translate(input);
    expectVendorOrder(events);
    const starts = events.filter((event) => event.type === 'content_block_start');
    expect(starts.map((event) => event.content_block)).toMatchInlineSnapshot(`
      [
        {
          "id": "call_JMW1whyEaYG438VE1OIflxA2",
          "input": {},
          "name": "GetWeatherArgs",
          "type": "tool_use",
        },
        {
          "id": "call_DNYTawLBoN8fj3KN6qU9N1Ou",
          "input": {},
          "name": "get_stock_price",
          "type": "tool_use",
        },
      ]
    `);
    const folded = accumulateMessagesEvents(events as unknown as Record<string, unknown>[]);
    expect(folded.content.map((block) => (block.type === 'tool_use' ? block.input : block))).toMatchInlineSnapshot(`
      [
        {
          "city": "Edinburgh",
          "country": "GB",
          "units": "c",
        },
        {
          "exchange": "NASDAQ",
          "ticker": "AAPL",
        },
      ]
    `);
    expectFoldedEqualsNonStream(input, events);
  });
});
