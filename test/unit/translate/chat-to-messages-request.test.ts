import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { DEFAULT_CATALOG, type ModelEntry } from '../../../src/models/catalog.js';
import { type ChatCompletionRequest, chatCompletionRequestSchema, messagesRequestSchema } from '../../../src/schemas/index.js';
import {
  type ChatToMessagesRequestOptions,
  DEFAULT_MAX_TOKENS,
  chatToMessagesRequest,
} from '../../../src/translate/chat-to-messages-request.js';
import { JSON_OBJECT_INSTRUCTION, JSON_TOOL_NAME } from '../../../src/translate/map-response-format.js';

function model(id: string): ModelEntry {
  const entry = DEFAULT_CATALOG.get(id);
  if (!entry) throw new Error(`no model ${id}`);
  return entry;
}

const SONNET_46 = model('vendora-sonnet-4-6'); // thinking enabled, temperature accepted
const OPUS_48 = model('vendora-opus-4-8'); // thinking adaptive, temperature rejected
const OPUS_47 = model('vendora-opus-4-7'); // no thinking

/** Parses the chat body like the gateway does, translates, and checks the result against the messages schema. */
function translate(body: Record<string, unknown>, options: Partial<ChatToMessagesRequestOptions> = {}) {
  const request = chatCompletionRequestSchema.parse({ model: 'vendora-sonnet-4-6', ...body });
  const result = chatToMessagesRequest(request as ChatCompletionRequest, { model: SONNET_46, upstreamModel: 'up-model', ...options });
  messagesRequestSchema.parse(result.request);
  return result;
}

function failure(run: () => unknown): { code: string; status: number; param: string | null; message: string } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { code: error.code, status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a GatewayError');
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==';

describe('chatToMessagesRequest: conversation', () => {
  it('hoists system and developer messages, merges same-role turns, keeps cache_control', () => {
    const { request, warnings } = translate({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Long shared prefix', cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: 'First' },
        { role: 'user', content: [{ type: 'text', text: 'Second' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
        { role: 'assistant', content: 'Answer' },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.jpg', detail: 'auto' }, cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      ],
    });
    expect(warnings).toEqual([]);
    expect(request).toMatchInlineSnapshot(`
      {
        "max_tokens": 4096,
        "messages": [
          {
            "content": [
              {
                "text": "First",
                "type": "text",
              },
              {
                "text": "Second",
                "type": "text",
              },
              {
                "source": {
                  "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==",
                  "media_type": "image/png",
                  "type": "base64",
                },
                "type": "image",
              },
            ],
            "role": "user",
          },
          {
            "content": "Answer",
            "role": "assistant",
          },
          {
            "content": [
              {
                "cache_control": {
                  "ttl": "1h",
                  "type": "ephemeral",
                },
                "source": {
                  "type": "url",
                  "url": "https://example.com/a.jpg",
                },
                "type": "image",
              },
            ],
            "role": "user",
          },
        ],
        "model": "up-model",
        "system": [
          {
            "text": "You are terse.",
            "type": "text",
          },
          {
            "cache_control": {
              "type": "ephemeral",
            },
            "text": "Long shared prefix",
            "type": "text",
          },
        ],
      }
    `);
  });

  it('assistant tool_calls → tool_use, tool messages → tool_result blocks in one user turn', () => {
    const { request } = translate({
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '24°C' }] },
        { role: 'user', content: 'Thanks. Which is warmer?' },
      ],
    });
    expect(request.messages).toMatchInlineSnapshot(`
      [
        {
          "content": "Weather in Paris and Rome?",
          "role": "user",
        },
        {
          "content": [
            {
              "id": "call_1",
              "input": {
                "city": "Paris",
              },
              "name": "get_weather",
              "type": "tool_use",
            },
            {
              "id": "call_2",
              "input": {
                "city": "Rome",
              },
              "name": "get_weather",
              "type": "tool_use",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "content": "18°C",
              "tool_use_id": "call_1",
              "type": "tool_result",
            },
            {
              "content": [
                {
                  "text": "24°C",
                  "type": "text",
                },
              ],
              "tool_use_id": "call_2",
              "type": "tool_result",
            },
            {
              "text": "Thanks. Which is warmer?",
              "type": "text",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });

  it('sends thinking_blocks back first on the assistant turn; a bare reasoning_content is dropped with a warning', () => {
    const { request, warnings } = translate({
      messages: [
        { role: 'user', content: 'Q' },
        {
          role: 'assistant',
          content: 'A',
          reasoning_content: 'thought',
          thinking_blocks: [{ type: 'thinking', thinking: 'thought', signature: 'sig' }, { type: 'redacted_thinking', data: 'xx' }],
        },
        { role: 'user', content: 'Q2' },
        { role: 'assistant', content: 'B', reasoning_content: 'unsigned thought' },
        { role: 'user', content: 'Q3' },
      ],
    });
    expect(request.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'thought', signature: 'sig' },
      { type: 'redacted_thinking', data: 'xx' },
      { type: 'text', text: 'A' },
    ]);
    expect(request.messages[3]?.content).toBe('B');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('messages.3.reasoning_content');
  });

  it('file parts become document blocks', () => {
    const { request } = translate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQK', filename: 'q3.pdf' } },
            { type: 'file', file: { file_data: `data:text/plain;base64,${Buffer.from('plain words').toString('base64')}` } },
            { type: 'file', file: { file_id: 'file_123' } },
          ],
        },
      ],
    });
    expect(request.messages[0]?.content).toEqual([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' }, title: 'q3.pdf' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
      { type: 'document', source: { type: 'file', file_id: 'file_123' } },
    ]);
  });

  it('keeps a large base64 payload intact', () => {
    const big = 'A'.repeat(1_000_000);
    const { request } = translate({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${big}` } }] }] });
    const [block] = request.messages[0]?.content as { source: { data: string } }[];
    expect(block?.source.data).toHaveLength(1_000_000);
  });

  it('invalid tool call arguments are a 400 naming the field', () => {
    const body = {
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] },
      ],
    };
    expect(failure(() => translate(body))).toMatchObject({
      code: 'INVALID_REQUEST',
      status: 400,
      param: 'messages.1.tool_calls.0.function.arguments',
    });
    const notObject = { messages: [{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }] }] };
    expect(failure(() => translate(notObject)).param).toBe('messages.1.tool_calls.0.function.arguments');
  });

  it('tool ids the vendor refuses are rewritten the same way on calls and results', () => {
    const { request } = translate({
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', tool_calls: [{ id: 'functions.get_weather:0', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'functions.get_weather:0', content: 'ok' },
      ],
    });
    expect(request.messages[1]?.content).toEqual([{ type: 'tool_use', id: 'functions_get_weather_0', name: 'f', input: {} }]);
    expect(request.messages[2]?.content).toEqual([{ type: 'tool_result', tool_use_id: 'functions_get_weather_0', content: 'ok' }]);
  });

  it('empty arguments mean no arguments', () => {
    const { request } = translate({
      messages: [{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] }],
    });
    expect(request.messages[1]?.content).toEqual([{ type: 'tool_use', id: 'c', name: 'f', input: {} }]);
  });

  it('rejects image types, detail levels and audio the vendor cannot take, or drops them with warnings', () => {
    const gif = { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'data:image/bmp;base64,Qk0=' } }] };
    expect(failure(() => translate({ messages: [gif] }))).toMatchObject({ code: 'UNSUPPORTED_PARAMETER', param: 'messages.0.content.1.image_url.url' });
    const detail = { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'high' } }] };
    expect(failure(() => translate({ messages: [detail] })).param).toBe('messages.0.content.0.image_url.detail');
    const audio = { role: 'user', content: [{ type: 'text', text: 'hear' }, { type: 'input_audio', input_audio: { data: 'AAA', format: 'wav' } }] };
    expect(failure(() => translate({ messages: [audio] })).param).toBe('messages.0.content.1');

    const dropped = translate({ messages: [gif, detail, audio] }, { dropUnsupportedParams: true });
    expect(dropped.warnings).toHaveLength(3);
    expect(dropped.request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } }, { type: 'text', text: 'hear' }] },
    ]);
  });

  it('a URL that is neither http(s) nor a data URL is a 400', () => {
    const body = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/a.png' } }] }] };
    expect(failure(() => translate(body))).toMatchObject({ code: 'INVALID_REQUEST', param: 'messages.0.content.0.image_url.url' });
  });
});

describe('chatToMessagesRequest: parameters', () => {
  const user = [{ role: 'user', content: 'Hi' }];

  it('maps sampling, stop, user, tokens and stream', () => {
    const { request } = translate({
      messages: user, temperature: 0.2, top_p: 0.9, stop: 'END', user: 'u-1', max_completion_tokens: 300, stream: true,
      stream_options: { include_usage: true }, n: 1, logprobs: false, presence_penalty: 0, store: false,
    });
    expect(request).toEqual({
      model: 'up-model', max_tokens: 300, messages: [{ role: 'user', content: 'Hi' }], temperature: 0.2, top_p: 0.9,
      stop_sequences: ['END'], metadata: { user_id: 'u-1' }, stream: true,
    });
  });

  it('uses max_tokens when max_completion_tokens is absent, and the documented default without either', () => {
    expect(translate({ messages: user, max_tokens: 77 }).request.max_tokens).toBe(77);
    expect(translate({ messages: user }).request.max_tokens).toBe(DEFAULT_MAX_TOKENS);
    expect(translate({ messages: user }, { defaultMaxTokens: 1000 }).request.max_tokens).toBe(1000);
  });

  it('maps tools, tool_choice and parallel_tool_calls', () => {
    const tools = [
      { type: 'function', function: { name: 'a', description: 'A tool', parameters: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] } } },
      { type: 'function', function: { name: 'b' }, cache_control: { type: 'ephemeral' } },
    ];
    const base = translate({ messages: user, tools });
    expect(base.request.tools).toMatchInlineSnapshot(`
      [
        {
          "description": "A tool",
          "input_schema": {
            "properties": {
              "x": {
                "type": "string",
              },
            },
            "required": [
              "x",
            ],
            "type": "object",
          },
          "name": "a",
        },
        {
          "cache_control": {
            "type": "ephemeral",
          },
          "input_schema": {
            "properties": {},
            "type": "object",
          },
          "name": "b",
        },
      ]
    `);
    expect(base.request.tool_choice).toBeUndefined();
    const choices = {
      auto: translate({ messages: user, tools, tool_choice: 'auto' }).request.tool_choice,
      none: translate({ messages: user, tools, tool_choice: 'none' }).request.tool_choice,
      required: translate({ messages: user, tools, tool_choice: 'required' }).request.tool_choice,
      named: translate({ messages: user, tools, tool_choice: { type: 'function', function: { name: 'b' } } }).request.tool_choice,
      serial: translate({ messages: user, tools, parallel_tool_calls: false }).request.tool_choice,
      serialRequired: translate({ messages: user, tools, tool_choice: 'required', parallel_tool_calls: false }).request.tool_choice,
    };
    expect(choices).toEqual({
      auto: { type: 'auto' },
      none: { type: 'none' },
      required: { type: 'any' },
      named: { type: 'tool', name: 'b' },
      serial: { type: 'auto', disable_parallel_tool_use: true },
      serialRequired: { type: 'any', disable_parallel_tool_use: true },
    });
    const allowed = translate({
      messages: user, tools, tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'b' } }] } },
    }).request;
    expect(allowed.tools?.map((tool) => tool.name)).toEqual(['b']);
    expect(allowed.tool_choice).toEqual({ type: 'any' });
  });

  it('rejects fields without an equivalent, naming them; drops them with warnings when asked', () => {
    expect(failure(() => translate({ messages: user, seed: 7 }))).toMatchObject({ code: 'UNSUPPORTED_PARAMETER', status: 400, param: 'seed' });
    expect(failure(() => translate({ messages: user, frequency_penalty: 0.5 })).param).toBe('frequency_penalty');
    expect(failure(() => translate({ messages: user, some_new_field: true })).param).toBe('some_new_field');
    expect(failure(() => translate({ messages: user, temperature: 1.5 })).param).toBe('temperature');
    const dropped = translate({ messages: user, seed: 7, logit_bias: { '1': 2 }, temperature: 1.5 }, { dropUnsupportedParams: true });
    expect(dropped.request).not.toHaveProperty('seed');
    expect(dropped.request).not.toHaveProperty('temperature');
    expect(dropped.warnings.map((w) => w.split('`')[1])).toEqual(['seed', 'logit_bias', 'temperature']);
  });

  it('a top-level `system` is a messages body sent to chat: refused with the fix, never dropped or offered to dropUnsupportedParams', () => {
    for (const dropUnsupportedParams of [false, true]) {
      const refused = failure(() => translate({ messages: user, system: 'You are terse.' }, { dropUnsupportedParams }));
      expect(refused).toMatchObject({ code: 'INVALID_REQUEST', status: 400, param: 'system' });
      expect(refused.message).toContain('POST it to /v1/messages, or move `system` into a system message');
      expect(refused.message).not.toContain('dropUnsupportedParams');
    }
  });

  it('keeps temperature for a model that rejects it (the model rules answer), drops it when dropping', () => {
    const opus = { model: OPUS_48 };
    expect(translate({ messages: user, temperature: 0.5 }, opus).request.temperature).toBe(0.5);
    const dropped = translate({ messages: user, temperature: 0.5 }, { ...opus, dropUnsupportedParams: true });
    expect(dropped.request.temperature).toBeUndefined();
    expect(dropped.warnings[0]).toContain('vendora-opus-4-8');
  });

  it('prompt_cache_key is a hint: dropped with a warning, never a 400', () => {
    const result = translate({ messages: user, prompt_cache_key: 'k' });
    expect(result.warnings).toEqual(['Dropped `prompt_cache_key`: it has no effect on the messages interface.']);
  });

  it('strips n (the gateway fans out) and stream_options', () => {
    const { request } = translate({ messages: user, n: 3, stream_options: { include_usage: true } });
    expect(request).not.toHaveProperty('n');
    expect(request).not.toHaveProperty('stream_options');
  });
});

describe('chatToMessagesRequest: reasoning_effort', () => {
  const user = [{ role: 'user', content: 'Think' }];

  it('enabled models get a budget per level and room for the answer', () => {
    const low = translate({ messages: user, reasoning_effort: 'low' }).request;
    expect(low.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(low.max_tokens).toBe(DEFAULT_MAX_TOKENS + 2048);
    const high = translate({ messages: user, reasoning_effort: 'high' }, { reasoningBudgets: { high: 20_000 } }).request;
    expect(high.thinking).toEqual({ type: 'enabled', budget_tokens: 20_000 });
  });

  it('a caller cap is kept and the budget shrinks below it', () => {
    const { request } = translate({ messages: user, reasoning_effort: 'high', max_completion_tokens: 5000 });
    expect(request.max_tokens).toBe(5000);
    expect(request.thinking).toEqual({ type: 'enabled', budget_tokens: 4999 });
    expect(failure(() => translate({ messages: user, reasoning_effort: 'low', max_completion_tokens: 1000 }))).toMatchObject({
      code: 'INVALID_REQUEST',
      param: 'max_completion_tokens',
    });
  });

  it('adaptive models get {type: adaptive}; models without thinking reject it', () => {
    expect(translate({ messages: user, reasoning_effort: 'medium' }, { model: OPUS_48 }).request.thinking).toEqual({ type: 'adaptive' });
    expect(failure(() => translate({ messages: user, reasoning_effort: 'medium' }, { model: OPUS_47 }))).toMatchObject({
      code: 'UNSUPPORTED_PARAMETER',
      param: 'reasoning_effort',
    });
    const dropped = translate({ messages: user, reasoning_effort: 'medium' }, { model: OPUS_47, dropUnsupportedParams: true });
    expect(dropped.request.thinking).toBeUndefined();
    expect(dropped.warnings).toHaveLength(1);
  });

  it('none means no thinking; an unknown level is a 400', () => {
    expect(translate({ messages: user, reasoning_effort: 'none' }).request.thinking).toBeUndefined();
    expect(failure(() => translate({ messages: user, reasoning_effort: 'ultra' })).param).toBe('reasoning_effort');
  });

  it('the thinking extension passes as is', () => {
    const { request } = translate({ messages: user, thinking: { type: 'enabled', budget_tokens: 3000 } });
    expect(request.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    expect(request.max_tokens).toBe(DEFAULT_MAX_TOKENS + 3000);
    expect(failure(() => translate({ messages: user, thinking: { type: 'enabled' } })).param).toBe('thinking');
  });
});

describe('chatToMessagesRequest: response_format', () => {
  const user = [{ role: 'user', content: 'List three colours' }];

  it('json_object: instruction in system plus the forced JSON tool', () => {
    const result = translate({ messages: [{ role: 'system', content: 'Be brief.' }, ...user], response_format: { type: 'json_object' } });
    expect(result.request.system).toEqual([{ type: 'text', text: 'Be brief.' }, { type: 'text', text: JSON_OBJECT_INSTRUCTION }]);
    expect(result.request.tools).toEqual([expect.objectContaining({ name: JSON_TOOL_NAME, input_schema: { type: 'object' } })]);
    expect(result.request.tool_choice).toEqual({ type: 'tool', name: JSON_TOOL_NAME });
    expect(result.request.messages.at(-1)?.role).toBe('user');
    expect(result.jsonPrefill).toBeUndefined();
  });

  it('json_object: instruction only when thinking or the caller\'s tools are on', () => {
    const thinking = translate({ messages: user, response_format: { type: 'json_object' }, reasoning_effort: 'low' });
    expect(thinking.request.tools).toBeUndefined();
    expect(thinking.request.tool_choice).toBeUndefined();
    expect(thinking.request.system).toEqual([{ type: 'text', text: JSON_OBJECT_INSTRUCTION }]);
    const tools = translate({ messages: user, response_format: { type: 'json_object' }, tools: [{ type: 'function', function: { name: 'f' } }] });
    expect(tools.request.tools?.map((tool) => tool.name)).toEqual(['f']);
    expect(tools.request.system).toEqual([{ type: 'text', text: JSON_OBJECT_INSTRUCTION }]);
  });

  it('json_object with jsonMode prefill: a { prefill to re-attach; instruction mode adds nothing else', () => {
    const prefill = translate({ messages: user, response_format: { type: 'json_object' } }, { jsonMode: 'prefill' });
    expect(prefill.request.messages.at(-1)).toEqual({ role: 'assistant', content: '{' });
    expect(prefill.request.tools).toBeUndefined();
    expect(prefill.jsonPrefill).toBe('{');
    const noPrefill = translate({ messages: user, response_format: { type: 'json_object' }, reasoning_effort: 'low' }, { jsonMode: 'prefill' });
    expect(noPrefill.jsonPrefill).toBeUndefined();
    const instruction = translate({ messages: user, response_format: { type: 'json_object' } }, { jsonMode: 'instruction' });
    expect(instruction.jsonPrefill).toBeUndefined();
    expect(instruction.request.tools).toBeUndefined();
    expect(instruction.request.system).toEqual([{ type: 'text', text: JSON_OBJECT_INSTRUCTION }]);
  });

  it('the JSON tool name is reserved', () => {
    expect(failure(() => translate({ messages: user, tools: [{ type: 'function', function: { name: JSON_TOOL_NAME } }] })).param).toBe('tools.0.function.name');
  });

  it('json_schema → output_config.format', () => {
    const schema = { type: 'object', properties: { colours: { type: 'array', items: { type: 'string' } } }, required: ['colours'] };
    const { request } = translate({ messages: user, response_format: { type: 'json_schema', json_schema: { name: 'colours', schema, strict: true } } });
    expect(request.output_config).toEqual({ format: { type: 'json_schema', schema } });
  });
});
