/**
 * GenAI attribute mapping. Expected values follow the semantic conventions
 * (input tokens include cache reads and writes) and PROTOCOLS A.5 / B (what
 * each format's usage fields mean).
 */
import { describe, expect, it } from 'vitest';
import { contentAttributes, providerName, readResponseMeta, requestParameterAttributes, usageAttributes } from '../../../src/observability/genai-attributes.js';
import { readUsage } from '../../../src/sse/usage-observer.js';

describe('usage attributes', () => {
  it('messages usage: input_tokens is fresh + cache read + cache creation', () => {
    const usage = readUsage('messages', { usage: { input_tokens: 10, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 } });
    expect(usageAttributes(usage)).toEqual({
      'gen_ai.usage.input_tokens': 130,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'gen_ai.usage.cache_creation.input_tokens': 20,
    });
  });

  it('chat usage: input_tokens is prompt_tokens (which already holds the cached tokens)', () => {
    const usage = readUsage('chat', { usage: { prompt_tokens: 50, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 32 } } });
    expect(usageAttributes(usage)).toEqual({ 'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': 4, 'gen_ai.usage.cache_read.input_tokens': 32 });
  });

  it('no usage, no attributes', () => {
    expect(usageAttributes({})).toEqual({});
  });
});

describe('request parameters', () => {
  it('chat: max_completion_tokens wins over max_tokens; a single stop string becomes a list; n only when not 1', () => {
    expect(requestParameterAttributes('chat', { model: 'm', max_tokens: 5, max_completion_tokens: 9, stop: 'END', temperature: 0, top_p: 1, seed: 3, n: 2, presence_penalty: 0.5 })).toEqual({
      'gen_ai.request.max_tokens': 9,
      'gen_ai.request.stop_sequences': ['END'],
      'gen_ai.request.temperature': 0,
      'gen_ai.request.top_p': 1,
      'gen_ai.request.seed': 3,
      'gen_ai.request.choice.count': 2,
      'gen_ai.request.presence_penalty': 0.5,
    });
    expect(requestParameterAttributes('chat', { model: 'm', n: 1 })).toEqual({});
  });

  it('messages: max_tokens, top_k, stop_sequences', () => {
    expect(requestParameterAttributes('messages', { max_tokens: 100, top_k: 40, stop_sequences: ['a', 'b'] })).toEqual({
      'gen_ai.request.max_tokens': 100,
      'gen_ai.request.top_k': 40,
      'gen_ai.request.stop_sequences': ['a', 'b'],
    });
  });

  it('never includes message text unless content capture asks for it', () => {
    const body = { model: 'm', system: 'Be terse.', messages: [{ role: 'user', content: 'secret plans' }] };
    expect(JSON.stringify(requestParameterAttributes('messages', body))).not.toContain('secret plans');
    const content = contentAttributes('messages', body);
    expect(JSON.parse(String(content['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'secret plans' }] }]);
    expect(JSON.parse(String(content['gen_ai.system_instructions']))).toEqual([{ type: 'text', content: 'Be terse.' }]);
  });
});

describe('response meta and provider', () => {
  it('chat: id, model, every choice finish_reason', () => {
    expect(readResponseMeta('chat', { id: 'chatcmpl-1', model: 'gpt-x', choices: [{ finish_reason: 'stop' }, { finish_reason: 'length' }] })).toEqual({
      id: 'chatcmpl-1',
      model: 'gpt-x',
      finishReasons: ['stop', 'length'],
    });
  });

  it('messages: id, model, stop_reason', () => {
    expect(readResponseMeta('messages', { id: 'msg_1', model: 'vendora-x', stop_reason: 'tool_use' })).toEqual({ id: 'msg_1', model: 'vendora-x', finishReasons: ['tool_use'] });
  });

  it('provider name by wire format (convention values)', () => {
    expect(providerName('messages')).toBe('anthropic');
    expect(providerName('chat')).toBe('openai');
  });
});
