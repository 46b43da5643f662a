/**
 * The cache key against the list of what can change an answer (in the key)
 * and what only carries it (out of it), per interface. The field tables are
 * written here from the interfaces' references, not read from the code, so a
 * field dropped from (or added to) the code's table fails.
 */
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../../src/cache/cache-key.js';

type Api = 'chat' | 'messages' | 'responses';
type Body = Record<string, unknown>;

const SCOPE = 'principal-1';
const TARGET = { models: ['upstream-model-a'] };

function key(api: Api, body: Body, scope = SCOPE, target: unknown = TARGET): string {
  return cacheKey({ api, body, scope, target });
}

const BASES: Record<Api, Body> = {
  chat: { model: 'alias', messages: [{ role: 'user', content: 'hi' }] },
  messages: { model: 'alias', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] },
  responses: { model: 'alias', input: 'hi' },
};

const schemaA = { type: 'object', properties: { q: { type: 'string' } } };
const schemaB = { type: 'object', properties: { n: { type: 'number' } } };

/** In fields, each with two values that differ from each other and from the default. */
const IN: Record<Api, Record<string, [unknown, unknown]>> = {
  chat: {
    messages: [[{ role: 'user', content: 'a' }], [{ role: 'user', content: 'b' }]],
    tools: [[{ type: 'function', function: { name: 'f', parameters: schemaA } }], [{ type: 'function', function: { name: 'f', parameters: schemaB } }]],
    tool_choice: ['none', 'required'],
    parallel_tool_calls: [false, 'false'],
    functions: [[{ name: 'f', parameters: schemaA }], [{ name: 'g', parameters: schemaA }]],
    function_call: ['none', { name: 'f' }],
    response_format: [{ type: 'json_object' }, { type: 'json_schema', json_schema: { name: 's', schema: schemaA } }],
    temperature: [0, 0.5],
    top_p: [0.5, 0.9],
    frequency_penalty: [0.5, 1],
    presence_penalty: [0.5, 1],
    logit_bias: [{ '50256': -100 }, { '50256': 100 }],
    max_completion_tokens: [10, 20],
    max_tokens: [10, 20],
    stop: ['x', ['x', 'y']],
    n: [2, 3],
    seed: [1, 2],
    reasoning_effort: ['low', 'high'],
    verbosity: ['low', 'high'],
    prediction: [{ type: 'content', content: 'a' }, { type: 'content', content: 'b' }],
    modalities: [['text', 'audio'], ['audio']],
    an_unknown_field: [1, 2],
  },
  messages: {
    system: ['be brief', 'be long'],
    messages: [[{ role: 'user', content: 'a' }], [{ role: 'user', content: 'b' }]],
    tools: [[{ name: 'f', input_schema: schemaA }], [{ name: 'f', input_schema: schemaB }]],
    tool_choice: [{ type: 'any' }, { type: 'none' }],
    thinking: [{ type: 'enabled', budget_tokens: 1024 }, { type: 'enabled', budget_tokens: 2048 }],
    output_config: [{ effort: 'low' }, { effort: 'high' }],
    max_tokens: [10, 20],
    temperature: [0, 0.5],
    top_p: [0.5, 0.9],
    top_k: [5, 10],
    stop_sequences: [['x'], ['x', 'y']],
    inference_geo: ['us', 'eu'],
    speed: ['fast', 'standard'],
    an_unknown_field: [1, 2],
  },
  responses: {
    input: ['a', 'b'],
    instructions: ['be brief', 'be long'],
    tools: [[{ type: 'function', name: 'f', parameters: schemaA }], [{ type: 'function', name: 'f', parameters: schemaB }]],
    tool_choice: ['none', 'required'],
    parallel_tool_calls: [false, 'false'],
    text: [{ format: { type: 'json_object' } }, { verbosity: 'low' }],
    reasoning: [{ effort: 'low' }, { effort: 'high' }],
    max_output_tokens: [10, 20],
    temperature: [0, 0.5],
    top_p: [0.5, 0.9],
    truncation: ['auto', 'other'],
    include: [['message.output_text.logprobs'], ['web_search_call.action.sources']],
    an_unknown_field: [1, 2],
  },
};

/** Out fields, each with a value that must not change the key. */
const OUT: Record<Api, Record<string, unknown>> = {
  chat: {
    model: 'another-alias',
    stream: true,
    stream_options: { include_usage: true },
    user: 'u-1',
    safety_identifier: 's-1',
    metadata: { job: 'eval' },
    service_tier: 'priority',
    prompt_cache_key: 'k-1',
    cache_control: { type: 'ephemeral' },
    store: true,
  },
  messages: {
    model: 'another-alias',
    stream: true,
    metadata: { user_id: 'u-1' },
    service_tier: 'standard_only',
    cache_control: { type: 'ephemeral' },
  },
  responses: {
    model: 'another-alias',
    stream: true,
    stream_options: { include_obfuscation: false },
    store: false,
    metadata: { job: 'eval' },
    user: 'u-1',
    safety_identifier: 's-1',
    prompt_cache_key: 'k-1',
    service_tier: 'flex',
    include: ['reasoning.encrypted_content'],
  },
};

/** Pairs of bodies that ask the same thing and must share a key. */
const SAME: Record<Api, [name: string, a: Body, b: Body][]> = {
  chat: [
    ['max_tokens ≡ max_completion_tokens', { max_tokens: 50 }, { max_completion_tokens: 50 }],
    ['string content ≡ one text part', { messages: [{ role: 'user', content: 'hi' }] }, { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }],
    ['stop string ≡ one-item list', { stop: 'x' }, { stop: ['x'] }],
    ['stop is a set', { stop: ['x', 'y'] }, { stop: ['y', 'x'] }],
    ['temperature omitted ≡ 1', {}, { temperature: 1 }],
    ['top_p omitted ≡ 1', {}, { top_p: 1 }],
    ['penalties omitted ≡ 0', {}, { frequency_penalty: 0, presence_penalty: 0 }],
    ['n omitted ≡ 1', {}, { n: 1 }],
    ['tool_choice omitted ≡ auto', {}, { tool_choice: 'auto' }],
    ['parallel_tool_calls omitted ≡ true', {}, { parallel_tool_calls: true }],
    ['response_format omitted ≡ text', {}, { response_format: { type: 'text' } }],
    ['null ≡ absent', {}, { seed: null, temperature: null, tools: null }],
    ['empty list ≡ absent', {}, { tools: [] }],
    ['a prompt-cache breakpoint on a part', { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }, { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }] }],
  ],
  messages: [
    ['string system ≡ one text block', { system: 'be brief' }, { system: [{ type: 'text', text: 'be brief' }] }],
    ['string content ≡ one text block', { messages: [{ role: 'user', content: 'hi' }] }, { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }],
    ['temperature omitted ≡ 1', {}, { temperature: 1 }],
    ['thinking omitted ≡ disabled', {}, { thinking: { type: 'disabled' } }],
    ['tool_choice omitted ≡ auto', {}, { tool_choice: { type: 'auto' } }],
    ['stop_sequences are a set', { stop_sequences: ['x', 'y'] }, { stop_sequences: ['y', 'x'] }],
    ['null ≡ absent', {}, { top_k: null, system: null }],
    ['prompt-cache breakpoints on system, content and tools', { system: [{ type: 'text', text: 's' }], tools: [{ name: 'f', input_schema: schemaA }] }, { system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }], tools: [{ name: 'f', input_schema: schemaA, cache_control: { type: 'ephemeral' } }] }],
  ],
  responses: [
    ['string input ≡ one user message', { input: 'hi' }, { input: [{ role: 'user', content: 'hi' }] }],
    ['easy message ≡ typed message with a text part', { input: [{ role: 'user', content: 'hi' }] }, { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] }],
    ['assistant string ≡ output_text part', { input: [{ role: 'assistant', content: 'ok' }] }, { input: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }] }],
    ['item id and status are bookkeeping', { input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }] }, { input: [{ type: 'function_call', id: 'fc_1', status: 'completed', call_id: 'c', name: 'f', arguments: '{}' }] }],
    ['generate_summary ≡ summary', { reasoning: { effort: 'low', summary: 'auto' } }, { reasoning: { effort: 'low', generate_summary: 'auto' } }],
    ['temperature omitted ≡ 1', {}, { temperature: 1 }],
    ['top_p omitted ≡ 1', {}, { top_p: 1 }],
    ['tool_choice omitted ≡ auto', {}, { tool_choice: 'auto' }],
    ['truncation omitted ≡ disabled', {}, { truncation: 'disabled' }],
    ['include reasoning.encrypted_content is transport', { include: ['message.output_text.logprobs'] }, { include: ['reasoning.encrypted_content', 'message.output_text.logprobs'] }],
    ['null ≡ absent', {}, { instructions: null, max_output_tokens: null }],
  ],
};

/** Where each interface keeps a tool's JSON Schema, and a tools list holding `schema`. */
const TOOLS_WITH: Record<Api, (schema: unknown) => Body> = {
  chat: (schema) => ({ tools: [{ type: 'function', function: { name: 'f', parameters: schema } }] }),
  messages: (schema) => ({ tools: [{ name: 'f', input_schema: schema }] }),
  responses: (schema) => ({ tools: [{ type: 'function', name: 'f', parameters: schema }] }),
};

const APIS: Api[] = ['chat', 'messages', 'responses'];

describe.each(APIS)('cacheKey (%s)', (api) => {
  const base = BASES[api];

  it('is the hex SHA-256 of something, the same for the same request', () => {
    expect(key(api, base)).toMatch(/^[0-9a-f]{64}$/);
    expect(key(api, structuredClone(base))).toBe(key(api, base));
  });

  it.each(Object.entries(IN[api]))('%s is in the key', (field, [a, b]) => {
    const withA = key(api, { ...base, [field]: a });
    expect(withA).not.toBe(key(api, { ...base, [field]: b }));
    if (!(field in base)) expect(withA).not.toBe(key(api, base));
  });

  it.each(Object.entries(OUT[api]))('%s is not in the key', (field, value) => {
    expect(key(api, { ...base, [field]: value })).toBe(key(api, base));
  });

  it.each(SAME[api])('%s', (_name, a, b) => {
    expect(key(api, { ...base, ...a })).toBe(key(api, { ...base, ...b }));
  });

  it('scope and target change the key', () => {
    expect(key(api, base, 'principal-2')).not.toBe(key(api, base));
    expect(key(api, base, 'shared')).not.toBe(key(api, base));
    expect(key(api, base, SCOPE, { models: ['upstream-model-b'] })).not.toBe(key(api, base));
  });

  it('key order of ordinary objects does not matter', () => {
    const reordered = Object.fromEntries(Object.entries({ ...base, temperature: 0.2, seed: 3 }).reverse());
    expect(key(api, reordered)).toBe(key(api, { ...base, temperature: 0.2, seed: 3 }));
  });

  it("key order inside a tool's JSON Schema does matter", () => {
    const ab = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
    const ba = { type: 'object', properties: { b: { type: 'string' }, a: { type: 'string' } } };
    expect(key(api, { ...base, ...TOOLS_WITH[api](ab) })).not.toBe(key(api, { ...base, ...TOOLS_WITH[api](ba) }));
  });

  it('leaves the body as it was', () => {
    const body = { ...base, ...TOOLS_WITH[api](schemaA), stream: true, stop: 'x', input: [{ role: 'user', content: 'hi', id: 'i' }] };
    const before = structuredClone(body);
    key(api, body);
    expect(body).toEqual(before);
  });
});

describe('cacheKey: the order of a response format schema', () => {
  const ab = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
  const ba = { type: 'object', properties: { b: { type: 'string' }, a: { type: 'string' } } };

  it('chat response_format.json_schema.schema', () => {
    const format = (schema: unknown) => ({ response_format: { type: 'json_schema', json_schema: { name: 's', schema } } });
    expect(key('chat', { ...BASES.chat, ...format(ab) })).not.toBe(key('chat', { ...BASES.chat, ...format(ba) }));
  });

  it('messages output_config.format.schema', () => {
    const format = (schema: unknown) => ({ output_config: { format: { type: 'json_schema', schema } } });
    expect(key('messages', { ...BASES.messages, ...format(ab) })).not.toBe(key('messages', { ...BASES.messages, ...format(ba) }));
  });

  it('responses text.format.schema', () => {
    const format = (schema: unknown) => ({ text: { format: { type: 'json_schema', name: 's', schema } } });
    expect(key('responses', { ...BASES.responses, ...format(ab) })).not.toBe(key('responses', { ...BASES.responses, ...format(ba) }));
  });
});

describe('cacheKey: sealed reasoning in a Responses input', () => {
  const withSeal = (sealed: string): Body => ({
    input: [{ type: 'reasoning', summary: [], encrypted_content: sealed }, { role: 'user', content: 'next' }],
  });
  // Two seals of the same blocks differ (random IV); the opener maps both to the blocks.
  const opened: Record<string, unknown> = { 'mg2.seal-1': [{ type: 'thinking', thinking: 't', signature: 's' }], 'mg2.seal-2': [{ type: 'thinking', thinking: 't', signature: 's' }], 'mg2.seal-3': [{ type: 'thinking', thinking: 'other', signature: 's' }] };
  const openReasoning = (sealed: string) => opened[sealed];
  const keyOf = (sealed: string, open?: (s: string) => unknown) => cacheKey({ api: 'responses', body: withSeal(sealed), scope: SCOPE, target: TARGET, openReasoning: open });

  it('two seals of the same thinking share a key once opened', () => {
    expect(keyOf('mg2.seal-1', openReasoning)).toBe(keyOf('mg2.seal-2', openReasoning));
  });

  it('different thinking gives a different key', () => {
    expect(keyOf('mg2.seal-1', openReasoning)).not.toBe(keyOf('mg2.seal-3', openReasoning));
  });

  it('without an opener, or for a value it cannot open, the text as sent is in the key', () => {
    expect(keyOf('mg2.seal-1')).not.toBe(keyOf('mg2.seal-2'));
    expect(keyOf('upstream-opaque-1', openReasoning)).not.toBe(keyOf('upstream-opaque-2', openReasoning));
  });
});
