/** Expected values: Google's function-calling modes (AUTO, ANY with allowedFunctionNames, NONE, VALIDATED). */
import { describe, expect, it } from 'vitest';
import { mapGeminiToolChoice } from '../../../src/upstreams/gemini/gemini-tool-choice.js';
import type { ChatCompletionRequest } from '../../../src/schemas/chat.js';

type Fields = Pick<ChatCompletionRequest, 'tool_choice' | 'function_call' | 'parallel_tool_calls'>;

describe('tool_choice → toolConfig.functionCallingConfig', () => {
  it.each<[string, Fields, unknown]>([
    ['auto', { tool_choice: 'auto' }, { functionCallingConfig: { mode: 'AUTO' } }],
    ['none', { tool_choice: 'none' }, { functionCallingConfig: { mode: 'NONE' } }],
    ['required', { tool_choice: 'required' }, { functionCallingConfig: { mode: 'ANY' } }],
    [
      'a named function',
      { tool_choice: { type: 'function', function: { name: 'get_weather' } } },
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    ],
    [
      'allowed tools, required',
      {
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'a' } }, { type: 'function', function: { name: 'b' } }] },
        },
      },
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } },
    ],
    [
      'allowed tools, auto',
      { tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'a' } }] } } },
      { functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['a'] } },
    ],
    ['legacy function_call none', { function_call: 'none' }, { functionCallingConfig: { mode: 'NONE' } }],
    ['legacy function_call by name', { function_call: { name: 'f' } }, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } }],
  ])('%s', (_name, fields, expected) => {
    expect(mapGeminiToolChoice(fields)).toEqual({ toolConfig: expected, warnings: [] });
  });

  it('sends nothing when the caller chose nothing (Gemini defaults to AUTO)', () => {
    expect(mapGeminiToolChoice({})).toEqual({ warnings: [] });
  });

  it('warns that parallel_tool_calls: false has no Gemini setting', () => {
    const mapped = mapGeminiToolChoice({ tool_choice: 'auto', parallel_tool_calls: false });
    expect(mapped.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(mapped.warnings).toEqual([expect.stringMatching(/^`parallel_tool_calls: false` left out/)]);
    expect(mapGeminiToolChoice({ parallel_tool_calls: true }).warnings).toEqual([]);
  });

  it('leaves out a choice of a custom tool, with a warning', () => {
    const mapped = mapGeminiToolChoice({ tool_choice: { type: 'custom', custom: { name: 'grammar' } } });
    expect(mapped.toolConfig).toBeUndefined();
    expect(mapped.warnings[0]).toMatch(/custom tool/);
  });
});
