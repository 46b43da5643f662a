import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  chatCompletionRequestSchema,
  chatContentPartSchema,
  chatMessageSchema,
  chatResponseFormatSchema,
  chatToolCallSchema,
  chatToolChoiceSchema,
  chatToolSchema,
  safeParseRequest,
  type ChatCompletionRequest,
} from '../../../src/schemas/index.js';

const user = { role: 'user', content: 'Hi' };
const base = { model: 'gpt-4o', messages: [user] };

/** The failure message of parsing `body`, or `'OK'`. */
function failure(body: unknown): string {
  const result = safeParseRequest(chatCompletionRequestSchema, body);
  return result.ok ? 'OK' : result.error.message;
}

describe('chatCompletionRequestSchema: the request bodies of PROTOCOLS B.1/B.2', () => {
  it('accepts the B.2 conversation (system, user with image, assistant tool call, tool result)', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo...', detail: 'auto' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_4XzlGBLtUe9dy3GVNV4jhq7h',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"New York City"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_4XzlGBLtUe9dy3GVNV4jhq7h', content: '22 C and sunny' },
      ],
    };
    const parsed = chatCompletionRequestSchema.parse(body);
    expect(parsed).toEqual(body);
  });

  it('accepts every documented optional field', () => {
    const body = {
      ...base,
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 100,
      max_completion_tokens: 200,
      stream: true,
      stream_options: { include_usage: true, include_obfuscation: false },
      tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' }, strict: true } }],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      response_format: { type: 'json_object' },
      n: 2,
      stop: ['END', 'STOP'],
      seed: -7,
      user: 'u-1',
      presence_penalty: -2,
      frequency_penalty: 2,
      logit_bias: { '50256': -100 },
      logprobs: true,
      top_logprobs: 20,
      reasoning_effort: 'low',
      service_tier: 'auto',
      store: false,
      metadata: { team: 'a' },
      modalities: ['text'],
      audio: { voice: 'alloy', format: 'mp3' },
      prediction: { type: 'content', content: 'draft' },
      verbosity: 'low',
      web_search_options: {},
      safety_identifier: 'hash',
      prompt_cache_key: 'k',
      functions: [{ name: 'legacy', parameters: { type: 'object' } }],
      function_call: { name: 'legacy' },
    };
    expect(chatCompletionRequestSchema.parse(body)).toEqual(body);
  });

  it('accepts explicit nulls on optional fields, as the vendor does', () => {
    const body = { ...base, temperature: null, stop: null, max_tokens: null, tools: null, tool_choice: null, n: null };
    expect(failure(body)).toBe('OK');
  });

  it('accepts stop as a string', () => {
    expect(failure({ ...base, stop: '\n' })).toBe('OK');
  });

  it('keeps unknown fields at the top level and nested', () => {
    const body = {
      ...base,
      brand_new_option: { a: 1 },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'x', future_flag: true }], speaker_id: 7 },
      ],
      tools: [{ type: 'function', function: { name: 'f', future: 'y' }, extra: 1 }],
      stream_options: { include_usage: true, future_option: 'z' },
    };
    const parsed = chatCompletionRequestSchema.parse(body);
    expect(parsed['brand_new_option']).toEqual({ a: 1 });
    expect(parsed).toEqual(body);
    const message = parsed.messages[0];
    expect(message?.['speaker_id']).toBe(7);
  });

  describe('required fields', () => {
    it('reports a missing model', () => {
      expect(failure({ messages: [user] })).toBe('model: field required');
    });

    it('reports missing messages and an empty list', () => {
      expect(failure({ model: 'm' })).toBe('messages: field required');
      expect(failure({ model: 'm', messages: [] })).toBe('messages: must contain at least 1 item');
    });

    it('reports missing message fields per role', () => {
      expect(failure({ model: 'm', messages: [{ content: 'x' }] })).toBe('messages.0.role: field required');
      expect(failure({ model: 'm', messages: [{ role: 'user' }] })).toBe('messages.0.content: field required');
      expect(failure({ model: 'm', messages: [{ role: 'system' }] })).toBe('messages.0.content: field required');
      expect(failure({ model: 'm', messages: [{ role: 'tool', content: 'x' }] })).toBe(
        'messages.0.tool_call_id: field required',
      );
      expect(failure({ model: 'm', messages: [user, { role: 'assistant' }] })).toBe(
        'messages.1.content: field required unless tool_calls is present',
      );
    });

    it('reports missing tool-call and tool fields', () => {
      const call = { id: 'c', type: 'function', function: { name: 'f' } };
      expect(failure({ model: 'm', messages: [user, { role: 'assistant', tool_calls: [call] }] })).toBe(
        'messages.1.tool_calls.0.function.arguments: field required',
      );
      expect(failure({ ...base, tools: [{ type: 'function', function: {} }] })).toBe('tools.0.function.name: field required');
      expect(failure({ ...base, tools: [{ type: 'function' }] })).toBe('tools.0.function: field required');
    });
  });

  describe('types and ranges', () => {
    it('rejects wrong types with what was received', () => {
      expect(failure({ model: 42, messages: [user] })).toBe('model: expected string, received number');
      expect(failure({ ...base, stream: 'yes' })).toBe('stream: expected boolean, received string');
      expect(failure({ ...base, messages: [{ role: 'user', content: 5 }] })).toBe(
        'messages.0.content: expected string | array, received number',
      );
      expect(failure({ ...base, stop: 5 })).toBe('stop: expected string | array, received number');
    });

    it('rejects unknown roles and content part types', () => {
      expect(failure({ model: 'm', messages: [{ role: 'bot', content: 'x' }] })).toBe(
        'messages.0.role: expected one of "system" | "developer" | "user" | "assistant" | "tool" | "function"',
      );
      expect(failure({ model: 'm', messages: [{ role: 'user', content: [{ type: 'video', video: {} }] }] })).toBe(
        'messages.0.content.0.type: expected one of "text" | "image_url" | "input_audio" | "file"',
      );
    });

    it.each([
      ['temperature', -0.1, 'must be at least 0'],
      ['temperature', 2.01, 'must be at most 2'],
      ['top_p', 1.5, 'must be at most 1'],
      ['top_p', -1, 'must be at least 0'],
      ['presence_penalty', -2.5, 'must be at least -2'],
      ['frequency_penalty', 3, 'must be at most 2'],
      ['top_logprobs', 21, 'must be at most 20'],
      ['top_logprobs', -1, 'must be at least 0'],
      ['n', 0, 'must be at least 1'],
      ['n', 1.5, 'expected integer, received number'],
      ['max_tokens', 0, 'must be at least 1'],
      ['max_completion_tokens', 2.5, 'expected integer, received number'],
      ['seed', 0.5, 'expected integer, received number'],
      ['verbosity', 'loud', 'expected one of "low" | "medium" | "high"'],
    ])('%s = %s is rejected: %s', (field, value, message) => {
      expect(failure({ ...base, [field]: value })).toBe(`${field}: ${message}`);
    });

    it('accepts the range bounds', () => {
      expect(failure({ ...base, temperature: 0, top_p: 0, presence_penalty: -2, frequency_penalty: 2 })).toBe('OK');
      expect(failure({ ...base, temperature: 2, top_p: 1, top_logprobs: 0, n: 1, max_tokens: 1 })).toBe('OK');
    });
  });
});

describe('chatContentPartSchema', () => {
  it.each([
    { type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } },
    { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'high' } },
    { type: 'input_audio', input_audio: { data: 'UklGR...', format: 'wav' } },
    { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBER', filename: 'a.pdf' } },
    { type: 'file', file: { file_id: 'file-1' } },
  ])('accepts %j', (part) => {
    expect(chatContentPartSchema.parse(part)).toEqual(part);
  });

  it('rejects an unknown image detail and a non-ephemeral cache_control', () => {
    expect(chatContentPartSchema.safeParse({ type: 'image_url', image_url: { url: 'u', detail: 'max' } }).success).toBe(
      false,
    );
    expect(chatContentPartSchema.safeParse({ type: 'text', text: 'x', cache_control: { type: 'forever' } }).success).toBe(
      false,
    );
  });
});

describe('chatMessageSchema', () => {
  it.each([
    { role: 'developer', content: [{ type: 'text', text: 'rules' }] },
    { role: 'system', content: 'x', name: 'sys' },
    { role: 'assistant', content: 'Sure.' },
    { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
    { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } },
    { role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'ok' }] },
    { role: 'function', name: 'f', content: null },
  ])('accepts %j', (message) => {
    expect(chatMessageSchema.parse(message)).toEqual(message);
  });

  it('rejects image parts in a tool message', () => {
    const message = { role: 'tool', tool_call_id: 'c', content: [{ type: 'image_url', image_url: { url: 'u' } }] };
    expect(chatMessageSchema.safeParse(message).success).toBe(false);
  });
});

describe('tools, tool_choice, response_format', () => {
  it('validates tool calls', () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    expect(chatToolCallSchema.parse(call)).toEqual(call);
    expect(chatToolCallSchema.safeParse({ ...call, function: { name: 'f', arguments: {} } }).success).toBe(false);
  });

  it.each([
    { type: 'function', function: { name: 'get_weather' } },
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: false,
      },
    },
    { type: 'custom', custom: { name: 'grammar', format: { type: 'text' } } },
  ])('accepts tool %j', (tool) => {
    expect(chatToolSchema.parse(tool)).toEqual(tool);
  });

  it.each([
    'none',
    'auto',
    'required',
    { type: 'function', function: { name: 'f' } },
    { type: 'custom', custom: { name: 'g' } },
    { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'f' } }] } },
  ])('accepts tool_choice %j', (choice) => {
    expect(chatToolChoiceSchema.parse(choice)).toEqual(choice);
  });

  it('explains a bad tool_choice', () => {
    expect(failure({ ...base, tool_choice: 'sometimes' })).toBe(
      'tool_choice: expected "none" | "auto" | "required" | object, received string',
    );
    expect(failure({ ...base, tool_choice: { type: 'function' } })).toBe('tool_choice.function: field required');
    expect(failure({ ...base, tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'any', tools: [] } } })).toBe(
      'tool_choice.allowed_tools.mode: expected one of "auto" | "required"',
    );
  });

  it.each([
    { type: 'text' },
    { type: 'json_object' },
    { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' }, strict: true } },
  ])('accepts response_format %j', (format) => {
    expect(chatResponseFormatSchema.parse(format)).toEqual(format);
  });

  it('rejects a json_schema format without a name', () => {
    expect(failure({ ...base, response_format: { type: 'json_schema', json_schema: {} } })).toBe(
      'response_format.json_schema.name: field required',
    );
  });
});

describe('inferred type', () => {
  it('narrows messages on role', () => {
    const parsed: ChatCompletionRequest = chatCompletionRequestSchema.parse(base);
    const message = parsed.messages[0];
    if (message?.role === 'tool') expectTypeOf(message.tool_call_id).toEqualTypeOf<string>();
    expectTypeOf(parsed.model).toEqualTypeOf<string>();
    expect(message?.role).toBe('user');
  });
});
