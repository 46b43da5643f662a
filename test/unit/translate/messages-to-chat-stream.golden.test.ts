/**
 * Golden tests: real recorded messages streams replayed through
 * `createMessagesToChatStream`, compared event by event; every chunk must
 * pass the chat chunk schema, and the folded stream must equal the
 * non-streamed translation of the folded input.
 */
import { describe, expect, it } from 'vitest';
import { chatCompletionChunkSchema, type ChatCompletionChunk } from '../../../src/schemas/index.js';
import { createMessagesToChatStream } from '../../../src/translate/messages-to-chat-stream.js';
import { messagesToChatResponse } from '../../../src/translate/messages-to-chat-response.js';
import type { SseEvent } from '../../../src/translate/stream-transform.js';
import {
  accumulateChatChunks,
  accumulateMessagesEvents,
  decodeEvents,
  normalizeArguments,
  readJsonLinesFixture,
  readSseFixture,
  runTransform,
} from './support/stream-harness.js';

const ID = 'chatcmpl-golden';
const CREATED = 1_760_000_000;
const MODEL = 'vendora-sonnet-5';

function translate(events: readonly SseEvent[], includeUsage = true): { encoded: string[]; chunks: ChatCompletionChunk[] } {
  const transform = createMessagesToChatStream({ model: MODEL, id: ID, created: CREATED, includeUsage });
  const encoded = runTransform(transform, events, 'messages');
  const decoded = decodeEvents(encoded);
  expect(decoded.at(-1)?.data).toBe('[DONE]');
  const chunks = decoded.slice(0, -1).map((event) => {
    expect(event.event).toBeUndefined();
    return chatCompletionChunkSchema.parse(event.data);
  });
  for (const chunk of chunks) {
    expect(chunk).toMatchObject({ id: ID, created: CREATED, model: MODEL, object: 'chat.completion.chunk' });
  }
  return { encoded, chunks };
}

/** One line per chunk: the delta and finish reason, or the usage of the usage chunk. */
function project(chunks: readonly ChatCompletionChunk[]): unknown[] {
  return chunks.map((chunk) => {
    const [choice] = chunk.choices;
    return choice ? [choice.delta, choice.finish_reason] : { usage: chunk.usage };
  });
}

function expectFoldedEqualsNonStream(events: readonly SseEvent[], chunks: readonly ChatCompletionChunk[]): void {
  const message = accumulateMessagesEvents(events.map((event) => JSON.parse(event.data) as Record<string, unknown>));
  const expected = messagesToChatResponse(message, { model: MODEL, id: ID, created: CREATED });
  expect(normalizeArguments(accumulateChatChunks(chunks))).toEqual(normalizeArguments(expected));
}

describe('messages → chat stream, recorded fixtures', () => {
  it('anthropic-text.sse: role chunk, text deltas, finish, usage, [DONE]', async () => {
    const events = await readSseFixture('recorded/anthropic-text.sse');
    const { encoded, chunks } = translate(events);
    expect(encoded[0]).toMatchInlineSnapshot(`
      "data: {"id":"chatcmpl-golden","object":"chat.completion.chunk","created":1760000000,"model":"vendora-sonnet-5","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}

      "
    `);
    expect(project(chunks)).toMatchInlineSnapshot(`
      [
        [
          {
            "content": "",
            "refusal": null,
            "role": "assistant",
          },
          null,
        ],
        [
          {
            "content": "Hello",
          },
          null,
        ],
        [
          {
            "content": " there",
          },
          null,
        ],
        [
          {
            "content": "!",
          },
          null,
        ],
        [
          {},
          "stop",
        ],
        {
          "usage": {
            "completion_tokens": 6,
            "prompt_tokens": 11,
            "prompt_tokens_details": {
              "cached_tokens": 0,
            },
            "total_tokens": 17,
          },
        },
      ]
    `);
    expect(encoded.at(-1)).toBe('data: [DONE]\n\n');
    expectFoldedEqualsNonStream(events, chunks);
  });

  it('anthropic-tool-use.sse: text then one tool call with argument fragments', async () => {
    const events = await readSseFixture('recorded/anthropic-tool-use.sse');
    const { chunks } = translate(events);
    expect(project(chunks)).toMatchInlineSnapshot(`
      [
        [
          {
            "content": "",
            "refusal": null,
            "role": "assistant",
          },
          null,
        ],
        [
          {
            "content": "I",
          },
          null,
        ],
        [
          {
            "content": "'ll check the current weather in Paris for you.",
          },
          null,
        ],
        [
          {
            "tool_calls": [
              {
                "function": {
                  "arguments": "",
                  "name": "get_weather",
                },
                "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
                "index": 0,
                "type": "function",
              },
            ],
          },
          null,
        ],
        [
          {
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"locati",
                },
                "index": 0,
              },
            ],
          },
          null,
        ],
        [
          {
            "tool_calls": [
              {
                "function": {
                  "arguments": "on": "P",
                },
                "index": 0,
              },
            ],
          },
          null,
        ],
        [
          {
            "tool_calls": [
              {
                "function": {
                  "arguments": "ar",
                },
                "index": 0,
              },
            ],
          },
          null,
        ],
        [
          {
            "tool_calls": [
              {
                "function": {
                  "arguments": "is"}",
                },
                "index": 0,
              },
            ],
          },
          null,
        ],
        [
          {},
          "tool_calls",
        ],
        {
          "usage": {
            "completion_tokens": 65,
            "prompt_tokens": 377,
            "prompt_tokens_details": {
              "cached_tokens": 0,
            },
            "total_tokens": 442,
          },
        },
      ]
    `);
    expectFoldedEqualsNonStream(events, chunks);
    const folded = accumulateChatChunks(chunks);
    expect(JSON.parse(folded.choices[0]?.message.tool_calls?.[0]?.function.arguments ?? '')).toEqual({ location: 'Paris' });
  });

  it('anthropic-thinking.data.jsonl: thinking goes to reasoning_content, never content', () => {
    const events = readJsonLinesFixture('recorded/anthropic-thinking.data.jsonl');
    const { chunks } = translate(events);
    expect(project(chunks)).toMatchInlineSnapshot(`
      [
        [
          {
            "content": null,
            "reasoning_content": "",
            "refusal": null,
            "role": "assistant",
          },
          null,
        ],
        [
          {
            "reasoning_content": "I",
          },
          null,
        ],
        [
          {
            "reasoning_content": "'m working through the Euclidean algorithm to find the GCD of 1071 and 462,",
          },
          null,
        ],
        [
          {
            "reasoning_content": " applying successive division until I reach a remainder of zero, which",
          },
          null,
        ],
        [
          {
            "reasoning_content": " gives me 21 as the greatest common divisor.",
          },
          null,
        ],
        [
          {
            "thinking_blocks": [
              {
                "signature": "EsECCokBCBAYAipA9i3HF1aHpQITkdN8OvLd33gdPZEyLKJA9EvxTXumYzG5xgpLkCYbGOTUkjuimP/4sMuSvrTX1hLxRAhUtlZnJzIPY2xhdWRlLXNvbm5ldC01OABCCHRoaW5raW5nWiQzYjkzYTVkZC03MzAyLTQ4M2YtYWVhZS0zNjIwNzU1NDhhZTESDAbvSPk/+y/ldBqv6BoMOCYOaXUugWqs6kXXIjBQ973isavJRdWK+d8zBKNmf0l9l9StDUo6wz8ZJrP8abCvbRLiPjjKLqPZaJUTcG4qZTHhVwzkEB7BbnEr2qzxHut5kzxg7E5rD5hCZHbjCwAYtMeAPZJOo8jigNCG2O745nj6veI330HlHPvUtHunqKgGqmnSilo4ucvTVAqF0qr0BkXSwZq2JlnKeXmFLtlg+1I6L4oPGAE=",
                "thinking": "I'm working through the Euclidean algorithm to find the GCD of 1071 and 462, applying successive division until I reach a remainder of zero, which gives me 21 as the greatest common divisor.",
                "type": "thinking",
              },
            ],
          },
          null,
        ],
        [
          {
            "content": "",
          },
          null,
        ],
        [
          {
            "content": "# Finding GCD(1071, 462) Using the Euclidean Algorithm

      ## Step 1: Divide 1071 by 462
      $$1071 = 2",
          },
          null,
        ],
        [
          {
            "content": " \\times 462 + 147$$
      (since 2 × 462 = 924, and 1071 − 924 = 147)",
          },
          null,
        ],
        [
          {
            "content": "

      ## Step 2: Divide 462 by 147
      $$462 = 3 \\times 147 + 21$$
      (since 3 × 147 = 441, and 462 − 441 = 21)

      ## Step",
          },
          null,
        ],
        [
          {
            "content": " 3: Divide 147 by 21
      $$147 = 7 \\times 21 + 0$$
      (since 7 × 21 = 147, remainder is 0)

      ## Concl",
          },
          null,
        ],
        [
          {
            "content": "usion
      Since the remainder is now 0, the algorithm stops. The last non-zero remainder is **21**.

      $$\\gcd(1071, 462",
          },
          null,
        ],
        [
          {
            "content": ") = 21$$

      **Verification:** 
      - 1071 = 21 × 51 ✓
      - 462 = 21 × 22 ✓",
          },
          null,
        ],
        [
          {},
          "stop",
        ],
        {
          "usage": {
            "completion_tokens": 373,
            "completion_tokens_details": {
              "reasoning_tokens": 62,
            },
            "prompt_tokens": 47,
            "prompt_tokens_details": {
              "cached_tokens": 0,
            },
            "total_tokens": 420,
          },
        },
      ]
    `);
    expectFoldedEqualsNonStream(events, chunks);
    const folded = accumulateChatChunks(chunks).choices[0]?.message;
    expect(folded?.content).not.toContain('Euclidean algorithm to find');
    expect(folded?.reasoning_content).toContain('Euclidean algorithm to find');
  });

  it('without include_usage: no usage key and no usage chunk', async () => {
    const events = await readSseFixture('recorded/anthropic-text.sse');
    const { chunks } = translate(events, false);
    expect(chunks.every((chunk) => !('usage' in chunk) && chunk.choices.length === 1)).toBe(true);
  });
});
