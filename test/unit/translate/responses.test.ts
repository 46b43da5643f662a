/** Non-streamed responses, both directions. */
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import {
  type ChatCompletion,
  type MessagesResponse,
  chatCompletionResponseSchema,
  messagesResponseSchema,
} from '../../../src/schemas/index.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { messagesToChatResponse } from '../../../src/translate/messages-to-chat-response.js';

const message = (content: MessagesResponse['content'], stopReason: MessagesResponse['stop_reason'] = 'end_turn'): MessagesResponse => ({
  id: 'msg_abc', type: 'message', role: 'assistant', model: 'upstream', content, stop_reason: stopReason, stop_sequence: null,
  usage: { input_tokens: 3, output_tokens: 4 },
});

const completion = (msg: Record<string, unknown>, finish: ChatCompletion['choices'][number]['finish_reason'] = 'stop'): ChatCompletion => ({
  id: 'chatcmpl-abc', object: 'chat.completion', created: 5, model: 'gpt-up',
  choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: 'assistant', content: null, refusal: null, ...msg } }],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
});

describe('messagesToChatResponse', () => {
  it('fills id, created and model; text blocks join; thinking stays out of content', () => {
    const out = chatCompletionResponseSchema.parse(
      messagesToChatResponse(
        message([
          { type: 'thinking', thinking: 'secret plan', signature: 's1' },
          { type: 'redacted_thinking', data: 'ENC' },
          { type: 'text', text: 'Part one. ' },
          { type: 'text', text: 'Part two.' },
        ]),
        { model: 'vendora-sonnet-5', created: 99 },
      ),
    );
    expect(out).toMatchInlineSnapshot(`
      {
        "choices": [
          {
            "finish_reason": "stop",
            "index": 0,
            "logprobs": null,
            "message": {
              "content": "Part one. Part two.",
              "reasoning_content": "secret plan",
              "refusal": null,
              "role": "assistant",
              "thinking_blocks": [
                {
                  "signature": "s1",
                  "thinking": "secret plan",
                  "type": "thinking",
                },
                {
                  "data": "ENC",
                  "type": "redacted_thinking",
                },
              ],
            },
          },
        ],
        "created": 99,
        "id": "chatcmpl-msg_abc",
        "model": "vendora-sonnet-5",
        "object": "chat.completion",
        "usage": {
          "completion_tokens": 4,
          "prompt_tokens": 3,
          "prompt_tokens_details": {
            "cached_tokens": 0,
          },
          "total_tokens": 7,
        },
      }
    `);
  });

  it('maps refusal to content_filter and max_tokens to length', () => {
    expect(messagesToChatResponse(message([], 'refusal'), { model: 'm' }).choices[0]?.finish_reason).toBe('content_filter');
    expect(messagesToChatResponse(message([{ type: 'text', text: 'cut' }], 'max_tokens'), { model: 'm' }).choices[0]?.finish_reason).toBe('length');
  });

  it('re-attaches the JSON prefill to the text', () => {
    const out = messagesToChatResponse(message([{ type: 'text', text: '"ok": true}' }]), { model: 'm', jsonPrefill: '{' });
    expect(JSON.parse(out.choices[0]?.message.content ?? '')).toEqual({ ok: true });
  });
});

describe('chatToMessagesResponse', () => {
  it('reasoning → thinking first, then text, then tool_use; ids and stop reason', () => {
    const out = messagesResponseSchema.parse(
      chatToMessagesResponse(
        completion(
          { content: 'Looking it up.', reasoning_content: 'need data', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":[1]}' } }] },
          'tool_calls',
        ),
        { model: 'vendora-x' },
      ),
    );
    expect(out).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "signature": "",
            "thinking": "need data",
            "type": "thinking",
          },
          {
            "text": "Looking it up.",
            "type": "text",
          },
          {
            "id": "call_1",
            "input": {
              "a": [
                1,
              ],
            },
            "name": "f",
            "type": "tool_use",
          },
        ],
        "id": "msg_chatcmpl-abc",
        "model": "vendora-x",
        "role": "assistant",
        "stop_reason": "tool_use",
        "stop_sequence": null,
        "type": "message",
        "usage": {
          "cache_creation_input_tokens": 0,
          "cache_read_input_tokens": 0,
          "input_tokens": 10,
          "output_tokens": 2,
        },
      }
    `);
  });

  it('prefers signed thinking_blocks over reasoning_content', () => {
    const out = chatToMessagesResponse(completion({ content: 'x', reasoning_content: 'r', thinking_blocks: [{ type: 'thinking', thinking: 'r', signature: 'S' }] }), { model: 'm' });
    expect(out.content[0]).toEqual({ type: 'thinking', thinking: 'r', signature: 'S' });
  });

  it('tool arguments that are not a JSON object are an upstream error (502)', () => {
    const bad = completion({ tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }, 'length');
    let caught: unknown;
    try {
      chatToMessagesResponse(bad, { model: 'm' });
    } catch (error) {
      caught = error;
    }
    expect(isGatewayError(caught) && [caught.code, caught.status]).toEqual(['UPSTREAM_ERROR', 502]);
  });

  it('a completion without choices is an upstream error', () => {
    expect(() => chatToMessagesResponse({ ...completion({}), choices: [] }, { model: 'm' })).toThrow(/without choices/);
  });
});
