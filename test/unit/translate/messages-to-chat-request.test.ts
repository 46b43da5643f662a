import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { type MessagesRequest, chatCompletionRequestSchema, messagesRequestSchema } from '../../../src/schemas/index.js';
import { type MessagesToChatRequestOptions, messagesToChatRequest } from '../../../src/translate/messages-to-chat-request.js';

function translate(body: Record<string, unknown>, options: Partial<MessagesToChatRequestOptions> = {}) {
  const request = messagesRequestSchema.parse({ model: 'vendora-x', max_tokens: 512, ...body });
  const result = messagesToChatRequest(request as MessagesRequest, { upstreamModel: 'gpt-up', ...options });
  chatCompletionRequestSchema.parse(result.request);
  return result;
}

function failure(run: () => unknown): { code: string; param: string | null } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('messagesToChatRequest', () => {
  it('maps a tool round trip with images and documents', () => {
    const { request, warnings } = translate({
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is on these?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' }, title: 'q3.pdf' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'a' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'found' },
            { type: 'text', text: 'And now?' },
          ],
        },
      ],
      tools: [{ name: 'lookup', description: 'Look up', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      temperature: 0.3,
      metadata: { user_id: 'u-9' },
      stream: true,
    });
    expect(warnings).toEqual([
      'Dropped `cache_control`: chat upstreams cache prompts automatically.',
      'Dropped earlier `thinking` blocks: they are signed for the messages vendor only.',
    ]);
    expect(request).toMatchInlineSnapshot(`
      {
        "max_completion_tokens": 512,
        "messages": [
          {
            "content": "Be brief.",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "What is on these?",
                "type": "text",
              },
              {
                "image_url": {
                  "url": "data:image/png;base64,iVBORw0KGgo=",
                },
                "type": "image_url",
              },
              {
                "image_url": {
                  "url": "https://example.com/a.jpg",
                },
                "type": "image_url",
              },
              {
                "file": {
                  "file_data": "data:application/pdf;base64,JVBERi0x",
                  "filename": "q3.pdf",
                },
                "type": "file",
              },
            ],
            "role": "user",
          },
          {
            "content": "Let me check.",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"q":"a"}",
                  "name": "lookup",
                },
                "id": "toolu_1",
                "type": "function",
              },
            ],
          },
          {
            "content": "found",
            "role": "tool",
            "tool_call_id": "toolu_1",
          },
          {
            "content": "And now?",
            "role": "user",
          },
        ],
        "model": "gpt-up",
        "parallel_tool_calls": false,
        "stop": [
          "END",
        ],
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
        "temperature": 0.3,
        "tool_choice": "required",
        "tools": [
          {
            "function": {
              "description": "Look up",
              "name": "lookup",
              "parameters": {
                "properties": {
                  "q": {
                    "type": "string",
                  },
                },
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
        "user": "u-9",
      }
    `);
  });

  it('maps tool_choice forms', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    const user = [{ role: 'user', content: 'x' }];
    const choice = (tool_choice: unknown) => translate({ messages: user, tools, tool_choice }).request;
    expect(choice({ type: 'auto' }).tool_choice).toBe('auto');
    expect(choice({ type: 'none' }).tool_choice).toBe('none');
    expect(choice({ type: 'tool', name: 'f' }).tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
    expect(choice({ type: 'auto' })).not.toHaveProperty('parallel_tool_calls');
  });

  it('maps thinking to reasoning_effort and structured output to response_format', () => {
    const user = [{ role: 'user', content: 'x' }];
    expect(translate({ messages: user, thinking: { type: 'enabled', budget_tokens: 2000 } }).request.reasoning_effort).toBe('low');
    expect(translate({ messages: user, thinking: { type: 'enabled', budget_tokens: 8000 } }).request.reasoning_effort).toBe('medium');
    expect(translate({ messages: user, thinking: { type: 'enabled', budget_tokens: 20000 } }).request.reasoning_effort).toBe('high');
    expect(translate({ messages: user, thinking: { type: 'adaptive' } }).request.reasoning_effort).toBe('medium');
    expect(translate({ messages: user, thinking: { type: 'disabled' } }).request).not.toHaveProperty('reasoning_effort');
    const schema = { type: 'object', properties: {} };
    expect(translate({ messages: user, output_config: { format: { type: 'json_schema', schema } } }).request.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema, strict: true },
    });
  });

  it('uses max_tokens for older servers when asked', () => {
    const { request } = translate({ messages: [{ role: 'user', content: 'x' }] }, { maxTokensField: 'max_tokens' });
    expect(request.max_tokens).toBe(512);
    expect(request).not.toHaveProperty('max_completion_tokens');
  });

  it('rejects what chat cannot express, naming the field; drops it with warnings when asked', () => {
    const user = [{ role: 'user', content: 'x' }];
    expect(failure(() => translate({ messages: user, top_k: 5 }))).toEqual({ code: 'UNSUPPORTED_PARAMETER', param: 'top_k' });
    expect(failure(() => translate({ messages: user, tools: [{ type: 'web_search_20250305', name: 'web_search' }] })).param).toBe('tools.0');
    const errored = [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'boom', is_error: true }] },
    ];
    expect(failure(() => translate({ messages: errored })).param).toBe('messages.2.content.0.is_error');
    const dropped = translate({ messages: errored, top_k: 5 }, { dropUnsupportedParams: true });
    expect(dropped.warnings).toHaveLength(2);
    expect(dropped.request.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 't', content: 'boom' });
  });
});
