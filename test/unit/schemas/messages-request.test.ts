import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  cacheControlSchema,
  countTokensRequestSchema,
  documentBlockSchema,
  imageBlockSchema,
  messagesContentBlockSchema,
  messagesMessageSchema,
  messagesRequestSchema,
  messagesToolChoiceSchema,
  messagesToolSchema,
  redactedThinkingBlockSchema,
  safeParseRequest,
  textBlockSchema,
  thinkingBlockSchema,
  thinkingConfigSchema,
  toolResultBlockSchema,
  toolUseBlockSchema,
  type MessagesContentBlock,
  type MessagesRequest,
} from '../../../src/schemas/index.js';

const base = { model: 'vendora-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] };

function failure(body: unknown, schema: typeof messagesRequestSchema | typeof countTokensRequestSchema = messagesRequestSchema): string {
  const result = safeParseRequest(schema, body);
  return result.ok ? 'OK' : result.error.message;
}

/** A request whose first user turn holds `blocks`. */
function withBlocks(...blocks: unknown[]) {
  return { ...base, messages: [{ role: 'user', content: blocks }] };
}

const blocks = {
  text: { type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } },
  imageBase64: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo...' } },
  imageUrl: { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
  imageFile: { type: 'image', source: { type: 'file', file_id: 'file_1' } },
  pdf: {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x...' },
    title: 'Q3',
    context: 'optional',
    citations: { enabled: true },
  },
  plainText: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain text' } },
  docUrl: { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
  docContent: { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'chunk' }] } },
  docFile: { type: 'document', source: { type: 'file', file_id: 'file_2' } },
  toolUse: { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
  toolResult: { type: 'tool_result', tool_use_id: 'toolu_01A', content: '18°C', is_error: false },
  thinking: { type: 'thinking', thinking: '...', signature: 'EqQB...' },
  redacted: { type: 'redacted_thinking', data: 'EmwKAhgB...' },
  searchResult: {
    type: 'search_result',
    source: 'https://example.com',
    title: 'Result',
    content: [{ type: 'text', text: 'found' }],
  },
};

describe('content blocks of PROTOCOLS A.2', () => {
  it.each(Object.entries(blocks))('accepts %s', (_name, block) => {
    expect(messagesContentBlockSchema.parse(block)).toEqual(block);
  });

  it('each block schema accepts its own example', () => {
    expect(textBlockSchema.parse(blocks.text)).toEqual(blocks.text);
    expect(imageBlockSchema.parse(blocks.imageUrl)).toEqual(blocks.imageUrl);
    expect(documentBlockSchema.parse(blocks.pdf)).toEqual(blocks.pdf);
    expect(toolUseBlockSchema.parse(blocks.toolUse)).toEqual(blocks.toolUse);
    expect(toolResultBlockSchema.parse(blocks.toolResult)).toEqual(blocks.toolResult);
    expect(thinkingBlockSchema.parse(blocks.thinking)).toEqual(blocks.thinking);
    expect(redactedThinkingBlockSchema.parse(blocks.redacted)).toEqual(blocks.redacted);
  });

  it('accepts tool_result content as blocks, or omitted', () => {
    const content = [blocks.text, blocks.imageBase64, blocks.pdf, blocks.searchResult];
    expect(failure(withBlocks({ type: 'tool_result', tool_use_id: 't', content }))).toBe('OK');
    expect(failure(withBlocks({ type: 'tool_result', tool_use_id: 't' }))).toBe('OK');
    expect(failure(withBlocks({ type: 'tool_result', tool_use_id: 't', content: [blocks.toolUse] }))).toBe(
      'messages.0.content.0.content.0.type: expected one of "text" | "image" | "document" | "search_result"',
    );
  });

  it('lets server-tool blocks with other types through, with all their keys', () => {
    const serverUse = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } };
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result' }] };
    expect(messagesContentBlockSchema.parse(serverUse)).toEqual(serverUse);
    expect(messagesContentBlockSchema.parse(result)).toEqual(result);
  });

  it('still rejects a malformed known block', () => {
    expect(failure(withBlocks({ type: 'text', text: 5 }))).toBe('messages.0.content.0.text: expected string, received number');
    expect(failure(withBlocks({ type: 'tool_use', id: 'x', name: 'f' }))).toBe('messages.0.content.0.input: field required');
    expect(failure(withBlocks({ type: 'thinking', thinking: 'x' }))).toBe('messages.0.content.0.signature: field required');
  });

  it('rejects image media types and sources the vendor does not take', () => {
    const bmp = { type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'Qk0=' } };
    expect(failure(withBlocks(blocks.text, bmp))).toBe(
      'messages.0.content.1.source.media_type: expected one of "image/jpeg" | "image/png" | "image/gif" | "image/webp"',
    );
    expect(failure(withBlocks({ type: 'image', source: { type: 'path', path: '/etc' } }))).toBe(
      'messages.0.content.0.source.type: expected one of "base64" | "url" | "file"',
    );
    expect(failure(withBlocks({ type: 'document', source: { type: 'base64', media_type: 'image/png', data: 'x' } }))).toBe(
      'messages.0.content.0.source.media_type: expected "application/pdf"',
    );
  });

  it('validates cache_control', () => {
    expect(cacheControlSchema.parse({ type: 'ephemeral', ttl: '1h' })).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(failure(withBlocks({ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '2h' } }))).toBe(
      'messages.0.content.0.cache_control.ttl: expected one of "5m" | "1h"',
    );
  });

  it('narrows the block union on type', () => {
    const block: MessagesContentBlock = messagesContentBlockSchema.parse(blocks.toolUse);
    if (block.type === 'tool_use') expectTypeOf(block.name).toEqualTypeOf<string>();
    if (block.type === 'text') expectTypeOf(block.text).toEqualTypeOf<string>();
    expect(block.type).toBe('tool_use');
  });
});

describe('messagesRequestSchema', () => {
  it('accepts a minimal request and every documented field', () => {
    expect(failure(base)).toBe('OK');
    const body = {
      ...base,
      system: [{ type: 'text', text: 'Be terse.', cache_control: { type: 'ephemeral', ttl: '5m' } }],
      temperature: 1,
      top_p: 0.99,
      top_k: 5,
      stop_sequences: ['END'],
      stream: true,
      tools: [
        {
          name: 'get_weather',
          description: 'Get weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          cache_control: { type: 'ephemeral' },
        },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      ],
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      thinking: { type: 'enabled', budget_tokens: 1024, display: 'summarized' },
      metadata: { user_id: 'u-1' },
      service_tier: 'standard_only',
      output_config: { effort: 'high', format: { type: 'json_schema', schema: { type: 'object' } } },
      cache_control: { type: 'ephemeral' },
      container: 'container_1',
      inference_geo: 'us',
      speed: 'fast',
      diagnostics: { trace: true },
    };
    expect(messagesRequestSchema.parse(body)).toEqual(body);
  });

  it('accepts a system string and a system-role message (1.x)', () => {
    expect(failure({ ...base, system: 'Be terse.' })).toBe('OK');
    expect(failure({ ...base, messages: [{ role: 'system', content: 'x' }, ...base.messages] })).toBe('OK');
  });

  it('does not reject whitespace-only stop sequences (a model rule gives the exact message)', () => {
    expect(failure({ ...base, stop_sequences: ['\n', '\n\n', ' '] })).toBe('OK');
  });

  it('keeps unknown fields at the top level and nested', () => {
    const body = {
      ...base,
      new_top_level: [1, 2],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x', new_block_flag: 'y' }], turn_id: 't1' }],
      thinking: { type: 'adaptive', future: 1 },
      metadata: { user_id: 'u', tenant: 'acme' },
    };
    const parsed = messagesRequestSchema.parse(body);
    expect(parsed).toEqual(body);
    expect(parsed['new_top_level']).toEqual([1, 2]);
    expect(parsed.messages[0]?.['turn_id']).toBe('t1');
  });

  describe('required fields', () => {
    it.each([
      ['model', 'model: field required'],
      ['max_tokens', 'max_tokens: field required'],
      ['messages', 'messages: field required'],
    ])('reports a missing %s', (field, message) => {
      const body: Record<string, unknown> = { ...base };
      delete body[field];
      expect(failure(body)).toBe(message);
    });

    it('reports missing message and block fields', () => {
      expect(failure({ ...base, messages: [] })).toBe('messages: must contain at least 1 item');
      expect(failure({ ...base, messages: [{ content: 'x' }] })).toBe('messages.0.role: field required');
      expect(failure({ ...base, messages: [{ role: 'user' }] })).toBe('messages.0.content: field required');
      expect(failure(withBlocks({ type: 'tool_result' }))).toBe('messages.0.content.0.tool_use_id: field required');
      expect(failure(withBlocks({ type: 'image' }))).toBe('messages.0.content.0.source: field required');
      expect(failure(withBlocks({ text: 'no type' }))).toBe('messages.0.content.0.type: field required');
    });

    it('reports missing tool and choice fields', () => {
      expect(failure({ ...base, tools: [{ name: 'f' }] })).toBe('tools.0.input_schema: field required');
      expect(failure({ ...base, tools: [{ input_schema: { type: 'object' } }] })).toBe('tools.0.name: field required');
      expect(failure({ ...base, tools: [{ type: 'web_search_20250305' }] })).toBe('tools.0.name: field required');
      expect(failure({ ...base, tool_choice: { type: 'tool' } })).toBe('tool_choice.name: field required');
      expect(failure({ ...base, thinking: { type: 'enabled' } })).toBe('thinking.budget_tokens: field required');
    });
  });

  describe('types and ranges', () => {
    it.each([
      ['max_tokens', 0, 'must be at least 1'],
      ['max_tokens', 10.5, 'expected integer, received number'],
      // zod checks the type before the integer format, so a string reads as "number".
      ['max_tokens', '100', 'expected number, received string'],
      ['temperature', 1.5, 'must be at most 1'],
      ['temperature', -1, 'must be at least 0'],
      ['top_p', 2, 'must be at most 1'],
      ['top_k', 1.5, 'expected integer, received number'],
      ['stop_sequences', 'END', 'expected array, received string'],
      ['stream', 1, 'expected boolean, received number'],
      ['service_tier', 'priority', 'expected one of "auto" | "standard_only"'],
      ['system', 5, 'expected string | array, received number'],
    ])('%s = %j is rejected: %s', (field, value, message) => {
      expect(failure({ ...base, [field]: value })).toBe(`${field}: ${message}`);
    });

    it('checks the thinking budget floor and the input_schema type', () => {
      expect(failure({ ...base, thinking: { type: 'enabled', budget_tokens: 1023 } })).toBe(
        'thinking.budget_tokens: must be at least 1024',
      );
      expect(failure({ ...base, thinking: { type: 'sometimes' } })).toBe(
        'thinking.type: expected one of "enabled" | "adaptive" | "disabled" | "between_tools"',
      );
      expect(failure({ ...base, tools: [{ name: 'f', input_schema: { type: 'array' } }] })).toBe(
        'tools.0.input_schema.type: expected "object"',
      );
    });

    it('rejects an unknown role', () => {
      expect(failure({ ...base, messages: [{ role: 'tool', content: 'x' }] })).toBe(
        'messages.0.role: expected one of "user" | "assistant" | "system"',
      );
    });
  });
});

describe('tools, tool_choice and thinking shapes (A.3, A.4)', () => {
  it.each([
    { name: 'f', input_schema: { type: 'object' } },
    {
      type: 'custom',
      name: 'f',
      input_schema: { type: 'object', properties: {} },
      strict: true,
      input_examples: [{ city: 'Paris' }],
      defer_loading: false,
      eager_input_streaming: true,
    },
    { type: 'web_search_20250305', name: 'web_search' },
    { type: 'bash_20250124', name: 'bash', cache_control: { type: 'ephemeral' } },
  ])('accepts tool %j', (tool) => {
    expect(messagesToolSchema.parse(tool)).toEqual(tool);
  });

  it.each([
    { type: 'auto', disable_parallel_tool_use: false },
    { type: 'any', disable_parallel_tool_use: true },
    { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
    { type: 'none' },
  ])('accepts tool_choice %j', (choice) => {
    expect(messagesToolChoiceSchema.parse(choice)).toEqual(choice);
  });

  it.each([
    { type: 'enabled', budget_tokens: 2048 },
    { type: 'enabled', budget_tokens: 4096, display: 'omitted' },
    { type: 'adaptive' },
    { type: 'adaptive', display: 'summarized' },
    { type: 'disabled' },
    { type: 'between_tools' },
  ])('accepts thinking %j', (thinking) => {
    expect(thinkingConfigSchema.parse(thinking)).toEqual(thinking);
  });

  it('accepts a message with string or block content', () => {
    expect(messagesMessageSchema.parse({ role: 'assistant', content: [blocks.thinking, blocks.toolUse] })).toEqual({
      role: 'assistant',
      content: [blocks.thinking, blocks.toolUse],
    });
  });
});

describe('countTokensRequestSchema (A.9)', () => {
  it('does not require max_tokens', () => {
    const body = { model: 'vendora-opus-4-8', messages: [{ role: 'user', content: 'Hi' }], system: 'x', tools: [] };
    expect(countTokensRequestSchema.parse(body)).toEqual(body);
  });

  it('requires model and messages', () => {
    expect(failure({ messages: base.messages }, countTokensRequestSchema)).toBe('model: field required');
    expect(failure({ model: 'm' }, countTokensRequestSchema)).toBe('messages: field required');
  });

  it('validates the shared fields', () => {
    expect(failure({ model: 'm', messages: base.messages, thinking: { type: 'enabled', budget_tokens: 5 } }, countTokensRequestSchema)).toBe(
      'thinking.budget_tokens: must be at least 1024',
    );
  });
});

describe('inferred type', () => {
  it('has the required fields typed', () => {
    const parsed: MessagesRequest = messagesRequestSchema.parse(base);
    expectTypeOf(parsed.max_tokens).toEqualTypeOf<number>();
    expectTypeOf(parsed.model).toEqualTypeOf<string>();
    expect(parsed.max_tokens).toBe(1024);
  });
});
