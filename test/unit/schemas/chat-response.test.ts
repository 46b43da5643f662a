import { describe, expect, it } from 'vitest';
import {
  chatCompletionChunkSchema,
  chatCompletionResponseSchema,
  chatErrorBodySchema,
  chatModelListSchema,
  chatModelSchema,
  type ChatCompletionChunk,
} from '../../../src/schemas/index.js';
import { readSseFixture } from './read-fixture.js';

/** PROTOCOLS B.3, recorded by the vendor's Python SDK tests. */
const recordedCompletion = {
  id: 'chatcmpl-ABfvx6Z4dchiW2nya1N8KMsHFrQRE',
  object: 'chat.completion',
  created: 1727346165,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_Y6qJ7ofLgOrBnMD5WbVAeiRV',
            type: 'function',
            function: { name: 'GetWeatherArgs', arguments: '{"city":"Edinburgh","country":"UK","units":"c"}' },
          },
        ],
        refusal: null,
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 76, completion_tokens: 24, total_tokens: 100, completion_tokens_details: { reasoning_tokens: 0 } },
  system_fingerprint: 'fp_e45dabd248',
};

const textCompletion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'vendora-sonnet-4-6',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi', reasoning_content: 'thought' }, finish_reason: 'stop' }],
  usage: {
    prompt_tokens: 10,
    completion_tokens: 2,
    total_tokens: 12,
    prompt_tokens_details: { cached_tokens: 8 },
  },
};

describe('chatCompletionResponseSchema (B.3)', () => {
  it('accepts the recorded tool-call body', () => {
    expect(chatCompletionResponseSchema.parse(recordedCompletion)).toEqual(recordedCompletion);
  });

  it('accepts a text reply with the reasoning_content extension and cached tokens', () => {
    expect(chatCompletionResponseSchema.parse(textCompletion)).toEqual(textCompletion);
  });

  it.each(['stop', 'length', 'tool_calls', 'content_filter', 'function_call'])('accepts finish_reason %s', (reason) => {
    const body = { ...textCompletion, choices: [{ ...textCompletion.choices[0], finish_reason: reason }] };
    expect(chatCompletionResponseSchema.safeParse(body).success).toBe(true);
  });

  it('rejects an unknown finish_reason, a missing content key and a non-assistant role', () => {
    const choice = textCompletion.choices[0];
    const variants = [
      { ...textCompletion, choices: [{ ...choice, finish_reason: 'end_turn' }] },
      { ...textCompletion, choices: [{ ...choice, message: { role: 'assistant' } }] },
      { ...textCompletion, choices: [{ ...choice, message: { role: 'user', content: 'x' } }] },
    ];
    for (const body of variants) expect(chatCompletionResponseSchema.safeParse(body).success).toBe(false);
  });

  it.each(['id', 'object', 'created', 'model', 'choices'])('requires %s', (key) => {
    const body: Record<string, unknown> = { ...textCompletion };
    delete body[key];
    expect(chatCompletionResponseSchema.safeParse(body).success).toBe(false);
  });

  it('requires the three usage counts', () => {
    const body = { ...textCompletion, usage: { prompt_tokens: 1, completion_tokens: 1 } };
    expect(chatCompletionResponseSchema.safeParse(body).success).toBe(false);
  });
});

describe('chatCompletionChunkSchema (B.4)', () => {
  it.each(['openai-text.sse', 'openai-tool-call.sse', 'openai-parallel-tool-calls.sse'])(
    'accepts every chunk of the recorded %s',
    (name) => {
      const events = readSseFixture(name);
      expect(events.at(-1)?.data).toBe('[DONE]');
      const chunks = events.slice(0, -1);
      expect(chunks.length).toBeGreaterThan(2);
      for (const { event, data } of chunks) {
        expect(event).toBeUndefined();
        const result = chatCompletionChunkSchema.safeParse(JSON.parse(data));
        expect(result.error?.issues ?? []).toEqual([]);
      }
    },
  );

  it('accepts the recorded tool-call stream of PROTOCOLS B.4, including the usage chunk', () => {
    const head = { id: 'chatcmpl-ABfwERreu9s99xXsVuOWtIB2UOx62', object: 'chat.completion.chunk', created: 1727346182, model: 'gpt-4o-2024-08-06' };
    const chunks = [
      {
        ...head,
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              content: null,
              tool_calls: [{ index: 0, id: 'call_4XzlGBLtUe9dy3GVNV4jhq7h', type: 'function', function: { name: 'get_weather', arguments: '' } }],
              refusal: null,
            },
            logprobs: null,
            finish_reason: null,
          },
        ],
      },
      { ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"New York City"}' } }] }, logprobs: null, finish_reason: null }] },
      { ...head, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }] },
      { ...head, choices: [], usage: { prompt_tokens: 44, completion_tokens: 16, total_tokens: 60, completion_tokens_details: { reasoning_tokens: 0 } } },
    ];
    for (const chunk of chunks) expect(chatCompletionChunkSchema.parse(chunk)).toEqual(chunk);
  });

  it('accepts reasoning_content deltas and usage: null', () => {
    const chunk = {
      id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', usage: null,
      choices: [{ index: 0, delta: { reasoning_content: 'hmm' }, finish_reason: null }],
    };
    const parsed: ChatCompletionChunk = chatCompletionChunkSchema.parse(chunk);
    expect(parsed.choices[0]?.delta.reasoning_content).toBe('hmm');
  });

  it('rejects a tool-call fragment without index, and a missing finish_reason key', () => {
    const head = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm' };
    const noIndex = { ...head, choices: [{ index: 0, delta: { tool_calls: [{ function: { arguments: '{' } }] }, finish_reason: null }] };
    const noFinish = { ...head, choices: [{ index: 0, delta: {} }] };
    expect(chatCompletionChunkSchema.safeParse(noIndex).success).toBe(false);
    expect(chatCompletionChunkSchema.safeParse(noFinish).success).toBe(false);
    expect(chatCompletionChunkSchema.safeParse({ ...head, object: 'chat.completion', choices: [] }).success).toBe(false);
  });
});

describe('chatErrorBodySchema (B.5)', () => {
  it('accepts the recorded 400', () => {
    const body = {
      error: {
        message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        type: 'invalid_request_error',
        param: 'max_tokens',
        code: 'unsupported_parameter',
      },
    };
    expect(chatErrorBodySchema.parse(body)).toEqual(body);
  });

  it.each(['message', 'type', 'param', 'code'])('requires error.%s (null is allowed only for param and code)', (key) => {
    const error: Record<string, unknown> = { message: 'm', type: 't', param: null, code: null };
    delete error[key];
    expect(chatErrorBodySchema.safeParse({ error }).success).toBe(false);
  });

  it('rejects a null message', () => {
    expect(chatErrorBodySchema.safeParse({ error: { message: null, type: 't', param: null, code: null } }).success).toBe(false);
  });
});

describe('chat model listing (B.6)', () => {
  const model = { id: 'gpt-4o', object: 'model', created: 1686935002, owned_by: 'openai' };

  it('accepts the documented list and the superset shape of C.1', () => {
    expect(chatModelListSchema.parse({ object: 'list', data: [model] })).toEqual({ object: 'list', data: [model] });
    const superset = {
      object: 'list',
      data: [{ ...model, type: 'model', display_name: 'GPT-4o', created_at: '2024-05-13T00:00:00Z' }],
      has_more: false,
      first_id: 'gpt-4o',
      last_id: 'gpt-4o',
    };
    expect(chatModelListSchema.parse(superset)).toEqual(superset);
  });

  it('requires the model keys', () => {
    expect(chatModelSchema.safeParse({ ...model, owned_by: undefined }).success).toBe(false);
    expect(chatModelSchema.safeParse({ ...model, object: 'list' }).success).toBe(false);
    expect(chatModelListSchema.safeParse({ data: [model] }).success).toBe(false);
  });
});
