/**
 * Expected bodies are Gemini's documented request shapes (generateContent
 * reference: `systemInstruction`, `contents[].role` user/model, `parts`
 * with `text` / `inlineData` / `fileData` / `functionCall` /
 * `functionResponse`, `tools[].functionDeclarations`, `toolConfig`,
 * `generationConfig`), written by hand from the chat input.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import type { ChatCompletionRequest } from '../../../src/schemas/chat.js';
import { chatToGeminiRequest } from '../../../src/upstreams/gemini/chat-to-gemini-request.js';

const FLASH_3 = 'gemini-3-flash-preview';
const FLASH_25 = 'gemini-2.5-flash';

function translate(body: Partial<ChatCompletionRequest>, model = FLASH_25) {
  return chatToGeminiRequest({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...body } as ChatCompletionRequest, { model });
}

function thrown(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

const THOUGHTS = { thinkingConfig: { includeThoughts: true } };

describe('conversation', () => {
  it('system and developer messages become the system instruction; user and assistant become user and model turns', () => {
    const { request, warnings } = translate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: [{ type: 'text', text: 'How are you?' }] },
      ],
    });
    expect(request).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello!' }] },
        { role: 'user', parts: [{ text: 'How are you?' }] },
      ],
      generationConfig: THOUGHTS,
    });
    expect(warnings).toEqual([]);
  });

  it('merges consecutive messages of one role into one turn', () => {
    const { request } = translate({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: 'c' },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'd' }] },
        { role: 'user', content: 'e' },
      ],
    });
    expect(request.contents).toEqual([
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
      { role: 'model', parts: [{ text: 'c' }, { text: 'd' }] },
      { role: 'user', parts: [{ text: 'e' }] },
    ]);
  });

  it('leaves out a trailing assistant prefill, with a warning', () => {
    const { request, warnings } = translate({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Sure, ' }] });
    expect(request.contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
    expect(warnings).toEqual([expect.stringMatching(/trailing assistant message left out/)]);
  });

  it('sends system-only text as the user turn Gemini needs', () => {
    const { request, warnings } = translate({ messages: [{ role: 'system', content: 'Say hi.' }] });
    expect(request.contents).toEqual([{ role: 'user', parts: [{ text: 'Say hi.' }] }]);
    expect(request.systemInstruction).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });
});

describe('content parts', () => {
  it.each<[string, unknown, unknown]>([
    ['a data URL image', { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
    ['an https image with an extension', { type: 'image_url', image_url: { url: 'https://example.com/cat.JPG?x=1' } }, { fileData: { fileUri: 'https://example.com/cat.JPG?x=1', mimeType: 'image/jpeg' } }],
    ['a Cloud Storage image', { type: 'image_url', image_url: { url: 'gs://bucket/a.webp' } }, { fileData: { fileUri: 'gs://bucket/a.webp', mimeType: 'image/webp' } }],
    ['audio input', { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }, { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }],
    ['a PDF data URL', { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'a.pdf' } }, { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjQ=' } }],
    ['bare PDF base64', { type: 'file', file: { file_data: 'JVBERi0xLjQ=' } }, { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjQ=' } }],
  ])('%s', (_name, part, expected) => {
    const { request, warnings } = translate({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Look:' }, part] }] as ChatCompletionRequest['messages'] });
    expect(request.contents).toEqual([{ role: 'user', parts: [{ text: 'Look:' }, expected] }]);
    expect(warnings).toEqual([]);
  });

  it('sends an image URL without a known extension without a type, and says Gemini may refuse it', () => {
    const { request, warnings } = translate({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/image?id=7' } }] }] });
    expect(request.contents[0]?.parts).toEqual([{ fileData: { fileUri: 'https://example.com/image?id=7' } }]);
    expect(warnings[0]).toMatch(/^`messages\.0\.content\.0\.image_url\.url`: the image type cannot be read from the URL/);
  });

  it('warns that image detail has no Gemini setting', () => {
    const { warnings } = translate({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==', detail: 'high' } }] }] });
    expect(warnings).toEqual([expect.stringMatching(/detail` left out/)]);
  });

  it.each<[string, unknown, string]>([
    ['a URL that is neither http(s) nor data', { type: 'image_url', image_url: { url: 'ftp://x/y.png' } }, 'messages.0.content.0.image_url.url'],
    ['file data that is not a data URL', { type: 'file', file: { file_data: 'hello' } }, 'messages.0.content.0.file.file_data'],
    ['a file id', { type: 'file', file: { file_id: 'file-abc' } }, 'messages.0.content.0.file.file_id'],
  ])('refuses %s with a 400 naming the field', (_name, part, param) => {
    const error = thrown(() => translate({ messages: [{ role: 'user', content: [part] }] as ChatCompletionRequest['messages'] }));
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message).toContain(param);
  });
});

describe('tool calls and results', () => {
  const weather = (id: string, city: string) => ({ id, type: 'function' as const, function: { name: 'get_weather', arguments: JSON.stringify({ city }) } });

  it('parallel calls become functionCall parts and their results one turn, in the order of the calls', () => {
    const { request } = translate({
      messages: [
        { role: 'user', content: 'Weather in Paris, London and Rome?' },
        { role: 'assistant', content: 'Checking.', tool_calls: [weather('c1', 'Paris'), weather('c2', 'London'), { id: 'c3', type: 'function', function: { name: 'get_time', arguments: '' } }] },
        { role: 'tool', tool_call_id: 'c3', content: '10:00' },
        { role: 'tool', tool_call_id: 'c1', content: '15C' },
        { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: '12' }, { type: 'text', text: 'C' }] },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(request.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris, London and Rome?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_weather', args: { city: 'London' } } },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: '15C' } } },
          { functionResponse: { name: 'get_weather', response: { output: '12C' } } },
          { functionResponse: { name: 'get_time', response: { output: '10:00' } } },
        ],
      },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
  });

  it('recovers each result name from the latest call with that id', () => {
    const { request } = translate({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'first', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_0', content: '1' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'second', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_0', content: '2' },
      ],
    });
    expect(request.contents[2]).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'first', response: { output: '1' } } }] });
    expect(request.contents[4]).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'second', response: { output: '2' } } }] });
  });

  it('takes the legacy function_call and function messages', () => {
    const { request } = translate({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{"x":1}' } },
        { role: 'function', name: 'f', content: 'done' },
      ],
    });
    expect(request.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'f', args: { x: 1 } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 'done' } } }] },
    ]);
  });

  it('refuses a result for a call no assistant message made', () => {
    const error = thrown(() => translate({ messages: [{ role: 'user', content: 'a' }, { role: 'tool', tool_call_id: 'nope', content: 'x' }] }));
    expect(error.status).toBe(400);
    expect(error.param).toBe('messages.1.tool_call_id');
  });

  it.each([['not JSON', '{city:'], ['not an object', '[1]']])('refuses call arguments that are %s', (_name, args) => {
    const error = thrown(() =>
      translate({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: args } }] }, { role: 'tool', tool_call_id: 'c', content: '' }] }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe('messages.1.tool_calls.0.function.arguments');
  });
});

describe('tools and tool choice', () => {
  it('function tools become one tool of declarations with reduced parameters; the choice becomes a function-calling mode', () => {
    const { request, warnings } = translate({
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather for a city',
            parameters: { type: 'object', properties: { city: { type: 'string', format: 'uri-reference', not: { const: '' } } }, required: ['city'], additionalProperties: false },
            strict: false,
          },
        },
        { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'noop' } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(request.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather for a city',
            parameters: { type: 'OBJECT', properties: { city: { type: 'STRING', format: 'uri-reference' } }, required: ['city'] },
          },
          { name: 'ping' },
          { name: 'noop' },
        ],
      },
    ]);
    expect(request.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
    expect(warnings).toEqual(['tools[0].function.parameters.properties.city.not: not supported by Gemini, left out']);
  });

  it('warns about strict tools, custom tools and parallel_tool_calls: false', () => {
    const { request, warnings } = translate({
      tools: [
        { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } } }, strict: true } },
        { type: 'custom', custom: { name: 'grammar' } },
      ],
      parallel_tool_calls: false,
    });
    expect(request.tools?.[0]?.functionDeclarations.map((fn) => fn.name)).toEqual(['f']);
    expect(warnings).toHaveLength(3);
    expect(warnings.join('\n')).toMatch(/`strict`[\s\S]*`tools\[1\]` left out[\s\S]*parallel_tool_calls/);
  });

  it('sends no tool config without tools', () => {
    expect(translate({ tool_choice: 'none' }).request.toolConfig).toBeUndefined();
  });
});

describe('generation config', () => {
  it('maps sampling, limits, stop sequences, candidates, structured output and thinking', () => {
    const { request, warnings } = translate(
      {
        temperature: 0.2,
        top_p: 0.9,
        top_k: 40,
        seed: 7,
        presence_penalty: 0.5,
        frequency_penalty: -0.5,
        stop: 'END',
        max_completion_tokens: 500,
        max_tokens: 100,
        n: 2,
        reasoning_effort: 'high',
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'answer', schema: { type: 'object', properties: { b: { type: 'string' }, a: { type: ['integer', 'null'] } }, required: ['b'] } },
        },
      } as Partial<ChatCompletionRequest>,
      FLASH_3,
    );
    expect(request.generationConfig).toEqual({
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      stopSequences: ['END'],
      maxOutputTokens: 500,
      candidateCount: 2,
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        properties: { b: { type: 'STRING' }, a: { type: 'INTEGER', nullable: true } },
        required: ['b'],
        propertyOrdering: ['b', 'a'],
      },
      thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' },
    });
    expect(warnings).toEqual([]);
  });

  it.each<[string, Partial<ChatCompletionRequest>, Record<string, unknown>]>([
    ['json_object', { response_format: { type: 'json_object' } }, { responseMimeType: 'application/json' }],
    ['text', { response_format: { type: 'text' } }, {}],
    ['max_tokens alone', { max_tokens: 64 }, { maxOutputTokens: 64 }],
    ['a stop list', { stop: ['a', 'b'] }, { stopSequences: ['a', 'b'] }],
    ['n = 1 (the default)', { n: 1 }, {}],
  ])('%s', (_name, body, expected) => {
    expect(translate(body).request.generationConfig).toEqual({ ...expected, ...THOUGHTS });
  });

  it('sends no generation config to a model without thinking when nothing is set', () => {
    expect(translate({}, 'gemini-2.0-flash').request.generationConfig).toBeUndefined();
  });

  it('warns about each field Gemini cannot honour, and is silent about those that change nothing', () => {
    const { warnings } = translate({
      logprobs: true,
      top_logprobs: 3,
      logit_bias: { '50256': -100 },
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
      prediction: { type: 'content', content: 'x' },
      verbosity: 'low',
      service_tier: 'flex',
      user: 'u1',
      metadata: { a: 'b' },
      store: true,
      prompt_cache_key: 'k',
      safety_identifier: 's',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(warnings.map((warning) => /^`([a-z_]+)/.exec(warning)?.[1])).toEqual([
      'logprobs',
      'top_logprobs',
      'logit_bias',
      'audio',
      'prediction',
      'verbosity',
      'service_tier',
      'modalities',
    ]);
  });
});
