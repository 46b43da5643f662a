import { describe, expect, it } from 'vitest';
import {
  responseInputItemSchema,
  responsesRequestSchema,
  safeParseRequest,
} from '../../../src/schemas/index.js';
import { AGENTS_BODY, CODEX_BODY } from '../translate/support/responses-bodies.js';

/** `param | message` of the failure of parsing `body`, or `'OK'`. */
function failure(body: Record<string, unknown>): string {
  const result = safeParseRequest(responsesRequestSchema, { model: 'm', ...body });
  return result.ok ? 'OK' : `${String(result.error.param)} | ${result.error.message}`;
}

describe('responsesRequestSchema: what clients send', () => {
  it.each([
    ['Codex', CODEX_BODY],
    ['Agents SDK', AGENTS_BODY],
  ])('accepts a %s body and keeps every field', (_name, body) => {
    expect(responsesRequestSchema.parse(body)).toEqual(body);
  });

  it('accepts a string input, explicit nulls and fields it does not model', () => {
    const body = {
      model: 'm',
      input: 'Hi',
      instructions: null,
      tools: null,
      text: { format: null, verbosity: null },
      reasoning: { effort: null, summary: null },
      max_output_tokens: null,
      background: false,
      conversation: null,
      prompt: null,
      truncation: 'disabled',
      context_management: [{ type: 'compaction' }],
      prompt_cache_retention: '24h',
    };
    expect(responsesRequestSchema.parse(body)).toEqual(body);
  });

  it('accepts every tool_choice form', () => {
    for (const toolChoice of [
      'none',
      'auto',
      'required',
      { type: 'function', name: 'f' },
      { type: 'custom', name: 'apply_patch' },
      { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] },
      { type: 'web_search_preview' },
      { type: 'mcp', server_label: 'docs', name: 'search' },
    ]) {
      expect(failure({ tool_choice: toolChoice })).toBe('OK');
    }
  });

  it('accepts any other item type loosely, but a malformed known item fails on its own fields', () => {
    const item = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } };
    expect(responseInputItemSchema.parse(item)).toEqual(item);
    expect(failure({ input: [{ type: 'function_call', call_id: 5, name: 'f', arguments: '{}' }] })).toBe(
      'input.0.call_id | input.0.call_id: expected string, received number',
    );
    expect(failure({ input: [{ type: 'function_call_output', output: 'x' }] })).toBe('input.0.call_id | input.0.call_id: field required');
    expect(failure({ input: [{ type: 'reasoning', summary: [{ type: 'summary_text' }] }] })).toBe(
      'input.0.summary.0.text | input.0.summary.0.text: field required',
    );
  });
});

describe('responsesRequestSchema: bad input is a 400 naming the field', () => {
  it.each([
    [{ model: undefined }, 'model | model: field required'],
    [{ input: [{ role: 'user', content: 5 }] }, 'input.0.content | input.0.content: expected string | array, received number'],
    [{ input: [{ content: 'x' }] }, 'input.0.role | input.0.role: field required'],
    [{ input: [{ role: 'tool', content: 'x' }] }, 'input.0.role | input.0.role: expected one of "user" | "system" | "developer" | "assistant"'],
    [
      { input: [{ role: 'user', content: [{ type: 'input_video' }] }] },
      'input.0.content.0.type | input.0.content.0.type: expected one of "input_text" | "input_image" | "input_file"',
    ],
    [
      { input: [{ role: 'assistant', content: [{ type: 'output_text' }] }] },
      'input.0.content.0.text | input.0.content.0.text: field required',
    ],
    [{ tools: [{ type: 'function' }] }, 'tools.0.name | tools.0.name: field required'],
    [{ tools: [{ name: 'x' }] }, 'tools.0.type | tools.0.type: field required'],
    [{ tools: [{ type: 'custom', name: 'p', format: { type: 'grammar', syntax: 'ebnf', definition: '' } }] }, 'tools.0.format.syntax | tools.0.format.syntax: expected one of "lark" | "regex"'],
    [{ tool_choice: { type: 'function' } }, 'tool_choice.name | tool_choice.name: field required'],
    [{ text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name | text.format.name: field required'],
    [
      { reasoning: { effort: 'huge' } },
      'reasoning.effort | reasoning.effort: expected one of "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max"',
    ],
    [{ max_output_tokens: 0 }, 'max_output_tokens | max_output_tokens: must be at least 1'],
    [{ max_output_tokens: 1.5 }, 'max_output_tokens | max_output_tokens: expected integer, received number'],
    [{ temperature: 2.1 }, 'temperature | temperature: must be at most 2'],
    [{ top_p: -0.1 }, 'top_p | top_p: must be at least 0'],
    [{ metadata: { k: 'v'.repeat(513) } }, 'metadata.k | metadata.k: must be at most 512 characters long'],
    [{ metadata: { k: 5 } }, 'metadata.k | metadata.k: expected string, received number'],
    [{ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata | metadata: must contain at most 16 pairs'],
    [{ include: 'reasoning.encrypted_content' }, 'include | include: expected array, received string'],
    [{ truncation: 'middle' }, 'truncation | truncation: expected one of "auto" | "disabled"'],
  ])('%j', (body, expected) => {
    expect(failure(body)).toBe(expected);
  });

  it('accepts 16 metadata pairs with 64-character keys and 512-character values', () => {
    const metadata = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${i}`.padEnd(64, 'k'), 'v'.repeat(512)]));
    expect(failure({ metadata })).toBe('OK');
    expect(failure({ metadata: { ['k'.repeat(65)]: 'v' } })).toMatch(/must be at most 64 characters long$/);
  });
});

describe('responsesRequestSchema: features the gateway refuses say what to send instead', () => {
  it.each([
    [
      { background: true },
      'background | background: background responses are not supported: this gateway answers within the request; leave `background` out',
    ],
    [
      { conversation: 'conv_68a1' },
      'conversation | conversation: conversations are not supported: send `previous_response_id` (the id of the last response) or the full conversation in `input` instead',
    ],
    [{ conversation: { id: 'conv_68a1' } }, expect.stringMatching(/^conversation \| conversation: conversations are not supported/)],
    [
      { prompt: { id: 'pmpt_1', version: '2' } },
      'prompt | prompt: prompt templates are not supported: send the prompt as `instructions` and `input` instead',
    ],
  ])('%j', (body, expected) => {
    expect(failure(body)).toEqual(expected);
    const result = safeParseRequest(responsesRequestSchema, { model: 'm', ...body });
    expect(result.ok ? undefined : [result.error.code, result.error.status]).toEqual(['INVALID_REQUEST', 400]);
  });
});
